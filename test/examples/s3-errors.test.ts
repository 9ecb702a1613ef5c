// The demo against bad S3 storage: an unreachable endpoint, a missing bucket, denied access, a corrupted object, a
// malformed location. Each ends with one clear line and an exit code of its own, and the attempts are exported.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CopyObjectCommand,
  CreateBucketCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSummary, row, runCli } from '../../packages/examples/test-support/run-cli.js';
import { expectFailedRun } from '../support/failed-run.js';
import { freePort } from '../support/free-port.js';
import { type Endpoint, S3RVER_CREDENTIALS, s3Client, startS3Server } from '../support/s3.js';
import { sourceTree as makeSourceTree } from '../support/source-tree.js';

let dir: string;
/** One s3rver for the file, with a bucket `backups`: each test uses a prefix of its own in it. */
let server: Endpoint;
let admin: S3Client;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'backupstats-s3-errors-'));
  server = await startS3Server();
  admin = s3Client(server);
  await admin.send(new CreateBucketCommand({ Bucket: 'backups' }));
});
afterAll(async () => {
  admin?.destroy();
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

const sourceTree = (name: string): Promise<string> => makeSourceTree(dir, name);

/** AWS's variables for a server of the tests; `credentials` replaces s3rver's account. */
function awsEnv(
  endpoint: string,
  credentials: { id: string; secret: string } = {
    id: S3RVER_CREDENTIALS.accessKeyId,
    secret: S3RVER_CREDENTIALS.secretAccessKey,
  },
): Record<string, string> {
  return {
    AWS_ENDPOINT_URL: endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: credentials.id,
    AWS_SECRET_ACCESS_KEY: credentials.secret,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
}

describe('bad S3 storage: one clear line, a distinct exit code, the attempts exported', () => {
  const s3Rows = async (summary: string, family: string) => {
    const rows = await readSummary(summary);
    const get = (operation: string) =>
      rows.find((r) => r.family === family && r.implementation === 'S3' && r.operation === operation)?.operations ?? 0;
    return {
      send: get('AWS:Request:Send'),
      failed: get('AWS:Request:Failed'),
      throttled: get('AWS:Request:Throttled'),
    };
  };
  it("an unreachable endpoint exits with 6 and names it; each of the SDK's three attempts is exported as failed", async () => {
    const source = await sourceTree('s3-unreachable-source');
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    const summary = join(dir, 's3-unreachable-summary.json');
    const result = await runCli(['backup', source, 's3://backups/x', '--quiet', '--summary-json', summary], {
      env: awsEnv(endpoint),
    });
    expect(result.code).toBe(6);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^backup-demo: error: cannot reach the S3 endpoint ${endpoint} for s3://backups/x/ \\(.*ECONNREFUSED.*\\)$`,
        ),
      ),
    ]);
    expect(await s3Rows(summary, 'backup')).toEqual({ send: 3, failed: 3, throttled: 0 });
    await expectFailedRun(summary, 'backup', 'destination');
  });

  it('a missing bucket exits with 7 and names it', async () => {
    const source = await sourceTree('s3-nobucket-source');
    const summary = join(dir, 's3-nobucket-summary.json');
    const result = await runCli(['backup', source, 's3://no-such-bucket/x', '--quiet', '--summary-json', summary], {
      env: awsEnv(server.url),
    });
    expect(result.code).toBe(7);
    expect(result.stderr).toBe(
      `backup-demo: error: cannot use s3://no-such-bucket/x/: the bucket no-such-bucket does not exist at the S3 endpoint ${server.url} (NoSuchBucket)\n`,
    );
    expect(await s3Rows(summary, 'backup')).toEqual({ send: 1, failed: 1, throttled: 0 });
    await expectFailedRun(summary, 'backup', 'configuration');
  });

  it('access denied (an unknown access key) exits with 8 and says which variables to check', async () => {
    const storage = await backupOfS3('s3-denied');
    const summary = join(dir, 's3-denied-summary.json');
    const result = await runCli(
      ['restore', storage, join(dir, 's3-denied-restored'), '--quiet', '--summary-json', summary],
      {
        env: awsEnv(server.url, { id: 'NOT-A-KEY', secret: 'wrong' }),
      },
    );
    expect(result.code).toBe(8);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^backup-demo: error: access to s3:\/\/backups\/s3-denied\/MANIFEST\.json was denied \(InvalidAccessKeyId: .+\); check the credentials: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY or AWS_PROFILE$/,
      ),
    ]);
    expect(await s3Rows(summary, 'restore')).toEqual({ send: 1, failed: 1, throttled: 0 });
    await expectFailedRun(summary, 'restore', 'configuration');
  });

  it('a corrupted object at restore exits with 5 and names its s3:// URL', async () => {
    const storage = await backupOfS3('s3-corrupt');
    // Damage the second object in place, through the S3 API.
    const got = await admin.send(new GetObjectCommand({ Bucket: 'backups', Key: 's3-corrupt/000001.gz' }));
    const data = Buffer.from(await got.Body!.transformToByteArray());
    for (let i = 20; i < data.length - 8; i += 97) data[i] = (data[i] ?? 0) ^ 0xff;
    await admin.send(new PutObjectCommand({ Bucket: 'backups', Key: 's3-corrupt/000001.gz', Body: data }));
    const summary = join(dir, 's3-corrupt-summary.json');
    const result = await runCli(
      [
        'restore',
        storage,
        join(dir, 's3-corrupt-restored'),
        '--concurrency',
        '1',
        '--quiet',
        '--summary-json',
        summary,
      ],
      {
        env: awsEnv(server.url),
      },
    );
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(
      'backup-demo: error: cannot restore from s3://backups/s3-corrupt/000001.gz: corrupted archive (Z_DATA_ERROR',
    );
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    const rows = await readSummary(summary);
    // The manifest and the first two objects were opened; the first file was restored whole.
    expect(row(rows, 'restore', 'BackupStorage', 'Source:Open').operations).toBe(3);
    expect(row(rows, 'restore', 'BackupEngine', 'Destination:Write').bytes).toBeGreaterThanOrEqual(36_000);
    expect(await s3Rows(summary, 'restore')).toEqual({ send: 3, failed: 0, throttled: 0 });
    await expectFailedRun(summary, 'restore', 'corrupted');
  });

  it('a malformed s3:// storage or endpoint variable exits with 2, naming it and what it accepts', async () => {
    let result = await runCli(['--storage', 's3://B/x']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--storage is "s3://B/x"; accepted: a folder, or s3://bucket/prefix');
    const source = await sourceTree('s3-badenv-source');
    result = await runCli(['backup', source, 's3://backups/x', '--quiet'], {
      env: { AWS_ENDPOINT_URL: 'localhost:9000' },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('AWS_ENDPOINT_URL is "localhost:9000"; accepted: an http:// or https:// URL');
  });
});

/** One backup made by the tool into `s3://backups/made/`, on first use: each test damages or denies a copy of it. */
let made: Promise<void> | undefined;
async function backup(): Promise<void> {
  const source = await sourceTree('s3-made-source');
  const result = await runCli(['backup', source, 's3://backups/made', '--quiet'], { env: awsEnv(server.url) });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
}

/**
 * A backup made by the tool, in `s3://backups/<prefix>`: a copy of the one backup (its manifest names its objects
 * without their prefix), made through the S3 API.
 */
async function backupOfS3(prefix: string): Promise<string> {
  made ??= backup();
  await made;
  const listed = await admin.send(new ListObjectsV2Command({ Bucket: 'backups', Prefix: 'made/' }));
  const keys = (listed.Contents ?? []).map((object) => object.Key as string);
  expect(keys).toContain('made/MANIFEST.json');
  for (const key of keys) {
    await admin.send(
      new CopyObjectCommand({
        Bucket: 'backups',
        CopySource: `backups/${key}`,
        Key: `${prefix}/${key.slice('made/'.length)}`,
      }),
    );
  }
  return `s3://backups/${prefix}`;
}
