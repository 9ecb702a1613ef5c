// docs/storage.md's Azure and Google Cloud Storage programs, run as written against real or local servers and a real
// OTLP receiver: each backs a file up, restores it (the JSON API's), and at its end exports what it metered. Only the
// environment points them at the servers, as a user's job would be pointed; the XML API's program has its endpoint
// in code, replaced here by s3rver's. Azurite is Microsoft's Azure Storage server; GCS's JSON API is a local server
// that stands in for it, because no GCS server installs here (none is on the npm registry or in Debian).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { startNode } from '@backupstats/testkit/node-process';
import { describe, expect, it, onTestFinished } from 'vitest';
// @ts-expect-error: a script of the repository, without types
import { blocksOf, esModule } from '../../scripts/readme-examples.mjs';
import { AZURITE_ACCOUNT, AZURITE_KEY, blobService, startAzurite } from '../support/azurite.js';
import { startStandIn } from '../support/gcs-stand-in.js';
import { type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver.js';
import { S3RVER_CREDENTIALS, s3Client, startS3Server } from '../support/s3.js';
import { seriesKey } from '../support/series-key.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

function program(marker: string): string {
  const found = (blocksOf(root, 'docs/storage.md') as Array<{ language: string; code: string }>).filter(
    (block) => block.language === 'ts' && block.code.includes(marker),
  );
  expect(found).toHaveLength(1);
  return esModule(found[0]) as string;
}

/** Runs `code` in a folder of the workspace with an `ibdata1`; returns the folder and the original file. */
async function run(
  code: string,
  receiver: OtlpReceiver,
  env: Record<string, string>,
): Promise<{ dir: string; original: Buffer }> {
  // In the workspace root, so that the imports resolve as in a user's project; .run-* is git-ignored.
  const dir = mkdtempSync(join(root, 'test', '.run-storage-example-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'example.mjs'), code);
  const original = Buffer.concat(
    Array.from({ length: 32 }, (_, i) => Buffer.alloc(64 * 1024, i).fill(randomBytes(512), 0, 512)),
  );
  writeFileSync(join(dir, 'ibdata1'), original);
  const job = startNode(['example.mjs'], {
    cwd: dir,
    env: {
      OTEL_METRICS_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_METRIC_EXPORT_INTERVAL: '600000', // no periodic export: what arrives is the final one
      ...env,
    },
  });
  onTestFinished(() => job.kill());
  expect((await job.exited).code, job.stderr()).toBe(0);
  return { dir, original };
}

const series = (receiver: OtlpReceiver, implementation: string) => (family: string, operation: string, what: string) =>
  receiver.totals().get(seriesKey(`${family}.${what}`, { component: 'BackupStorage', implementation, operation }));

describe("docs/storage.md's programs", () => {
  it('the Azure program backs up and restores through Azurite, and exports every Azure operation', async () => {
    const azurite = await startAzurite();
    onTestFinished(() => azurite.stop());
    const receiver = await startOtlpReceiver('http');
    onTestFinished(() => receiver.stop());
    const { dir, original } = await run(program('meterBlobClient(uploads'), receiver, {
      AZURE_STORAGE_CONNECTION_STRING: `DefaultEndpointsProtocol=http;AccountName=${AZURITE_ACCOUNT};AccountKey=${AZURITE_KEY};BlobEndpoint=${azurite.url}/${AZURITE_ACCOUNT};`,
    });
    expect(readFileSync(join(dir, 'ibdata1')).equals(original)).toBe(true);
    const properties = await blobService(azurite)
      .getContainerClient('backups')
      .getBlobClient('db/000001.gz')
      .getProperties();
    const stored = properties.contentLength ?? 0;
    expect(stored).toBeGreaterThan(0);
    const azure = series(receiver, 'Azure');
    expect(azure('backup', 'Destination:Open', 'operations')).toBe(1);
    expect(azure('backup', 'Destination:Write', 'bytes')).toBe(stored);
    expect(azure('backup', 'Destination:Close', 'operations')).toBe(1);
    // Create, at least one block, the commit.
    expect(azure('backup', 'HTTP:Request:Send', 'operations')).toBeGreaterThanOrEqual(3);
    expect(azure('restore', 'Source:Open', 'operations')).toBe(1);
    expect(azure('restore', 'Source:Read', 'bytes')).toBe(stored);
    expect(azure('restore', 'HTTP:Request:Send', 'operations')).toBe(1);
  }, 60_000);

  it('the GCS JSON API program backs up and restores through a stand-in for GCS, and exports every attempt', async () => {
    const standIn = await startStandIn();
    onTestFinished(() => standIn.stop());
    const receiver = await startOtlpReceiver('http');
    onTestFinished(() => receiver.stop());
    const { dir, original } = await run(program('file.createWriteStream()'), receiver, {
      STORAGE_EMULATOR_HOST: standIn.origin,
      GOOGLE_CLOUD_PROJECT: 'backups',
    });
    expect(readFileSync(join(dir, 'ibdata1')).equals(original)).toBe(true);
    const gcs = series(receiver, 'GCS');
    const attempts =
      (gcs('backup', 'HTTP:Request:Send', 'operations') ?? 0) +
      (gcs('restore', 'HTTP:Request:Send', 'operations') ?? 0);
    expect(attempts).toBe(standIn.counts.requests);
    expect(gcs('restore', 'HTTP:Request:Send', 'operations')).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('the GCS XML API program uploads through s3rver in its place, and exports its S3 operations as GCS', async () => {
    const s3 = await startS3Server();
    onTestFinished(() => s3.stop());
    const admin = s3Client(s3);
    onTestFinished(() => admin.destroy());
    await admin.send(new CreateBucketCommand({ Bucket: 'backups' }));
    const receiver = await startOtlpReceiver('http');
    onTestFinished(() => receiver.stop());
    const code = program("endpoint: 'https://storage.googleapis.com'").replace(
      'https://storage.googleapis.com',
      s3.url,
    );
    await run(code, receiver, {
      GCS_HMAC_ACCESS_ID: S3RVER_CREDENTIALS.accessKeyId,
      GCS_HMAC_SECRET: S3RVER_CREDENTIALS.secretAccessKey,
    });
    const stored = await admin.send(new HeadObjectCommand({ Bucket: 'backups', Key: 'db/000001.gz' }));
    const gcs = series(receiver, 'GCS');
    expect(gcs('backup', 'Destination:Write', 'bytes')).toBe(stored.ContentLength);
    expect(gcs('backup', 'AWS:Request:Send', 'operations')).toBeGreaterThanOrEqual(1);
  }, 60_000);
});
