// docs/storage.md's S3 example, run as written against a real S3 server (s3rver) and a real OTLP receiver: the job backs a
// file up, restores it, and at its end exports what it metered, without a line of its own for that (stats that
// never export would fail here). Only the environment points it at the servers, as a user's job would be pointed.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { startNode } from '@backupstats/testkit/node-process';
import { describe, expect, it, onTestFinished } from 'vitest';
// @ts-expect-error: a script of the repository, without types
import { blocksOf, compile } from '../../scripts/readme-examples.mjs';
import { startOtlpReceiver } from '../support/otlp-receiver.js';
import { S3RVER_CREDENTIALS, s3Client, startS3Server } from '../support/s3.js';
import { seriesKey } from '../support/series-key.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe("docs/storage.md's S3 example", () => {
  it('backs up and restores through s3rver, and its final export carries every S3 operation', async () => {
    const [example] = (blocksOf(root, 'docs/storage.md') as Array<{ language: string; code: string }>).filter(
      (block) => block.language === 'ts' && block.code.includes('meterS3Client(uploads'),
    );
    expect(example?.code).toContain('shutdownOnExit(stats)');

    const s3 = await startS3Server();
    onTestFinished(() => s3.stop());
    const admin = s3Client(s3);
    onTestFinished(() => admin.destroy());
    await admin.send(new CreateBucketCommand({ Bucket: 'backups' }));
    const receiver = await startOtlpReceiver('http');
    onTestFinished(() => receiver.stop());

    // In the workspace root, so that the example's imports resolve as in a user's project; .run-* is git-ignored.
    const dir = mkdtempSync(join(root, 'test', '.run-s3-example-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'example.mjs'), (compile(example) as { mjs: string }).mjs);
    // Compressible, as a database file is, with enough random parts that the upload takes several requests' bytes.
    const original = Buffer.concat(
      Array.from({ length: 64 }, (_, i) => Buffer.alloc(64 * 1024, i).fill(randomBytes(512), 0, 512)),
    );
    writeFileSync(join(dir, 'ibdata1'), original);

    const job = startNode(['example.mjs'], {
      cwd: dir,
      env: {
        AWS_ENDPOINT_URL: s3.url, // an IP address: the SDK addresses the bucket by path
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
        OTEL_METRICS_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
        OTEL_METRIC_EXPORT_INTERVAL: '600000', // no periodic export: what arrives is the final one
      },
    });
    onTestFinished(() => job.kill());
    expect((await job.exited).code, job.stderr()).toBe(0);

    expect(readFileSync(join(dir, 'ibdata1')).equals(original)).toBe(true);
    const stored = await admin.send(new HeadObjectCommand({ Bucket: 'backups', Key: 'db/000001.gz' }));
    const storedBytes = stored.ContentLength ?? 0;
    expect(storedBytes).toBeGreaterThan(0);

    const totals = receiver.totals();
    const s3Series = (family: string, operation: string, what: string) =>
      totals.get(seriesKey(`${family}.${what}`, { component: 'BackupStorage', implementation: 'S3', operation }));
    expect(s3Series('backup', 'Destination:Write', 'bytes')).toBe(storedBytes);
    expect(s3Series('backup', 'AWS:Request:Send', 'operations')).toBeGreaterThanOrEqual(1);
    expect(s3Series('restore', 'Source:Open', 'operations')).toBe(1);
    expect(s3Series('restore', 'Source:Read', 'bytes')).toBe(storedBytes);
    expect(s3Series('restore', 'Source:Close', 'operations')).toBe(1);
    expect(s3Series('restore', 'AWS:Request:Send', 'operations')).toBe(1);
  }, 60_000);
});
