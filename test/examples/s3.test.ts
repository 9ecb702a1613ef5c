// The demo's S3 round trip: against the S3 server it starts itself (pnpm demo with no argument), and against
// an s3:// storage given with AWS's variables, counted by a proxy of ours in front of a real S3 server.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { readSummary, row, runCli, type SummaryRow } from '../../packages/examples/test-support/run-cli.js';
import { requireE2E } from '../support/prometheus.js';
import { S3RVER_CREDENTIALS, s3Client, startS3Proxy, startS3Server } from '../support/s3.js';
import { haveNode22, node22 } from '../support/sdk3-install.js';

const MiB = 1024 * 1024;

let dir: string;
let source: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'backupstats-example-s3-'));
  // One file that stays above a part (5 MiB) once compressed, so it goes up in parts (two: what a multipart upload
  // does shows in two parts, and every MiB is compressed, stored, read back and checked by each of the three runs);
  // one that does not.
  source = join(dir, 'source');
  await mkdir(join(source, 'db'), { recursive: true });
  await writeFile(join(source, 'db', 'random.ibd'), randomBytes(6 * MiB));
  await writeFile(join(source, 'notes.txt'), 'binlog position 4711\n'.repeat(5_000));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const s3 = (rows: readonly SummaryRow[], family: string, operation: string): SummaryRow => {
  const found = row(rows, family, 'BackupStorage', operation);
  if (found.operations > 0) expect(found.implementation).toBe('S3');
  return found;
};

describe('the demo backs up into S3', () => {
  it('with no storage given, into an S3 server it starts on 127.0.0.1: multipart upload, restore, verify, the S3 rows in the summary', async () => {
    const summary = join(dir, 'embedded-summary.json');
    const result = await runCli([source, '--summary-json', summary, '--quiet']);
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^S3 server \(s3rver\) on http:\/\/127\.0\.0\.1:\d+, bucket backupstats-demo$/m);
    expect(result.stdout).toContain('in s3://backupstats-demo/backup/');
    expect(result.stdout).toContain('verified: every size and sha256 matches the source');

    const rows = await readSummary(summary);
    // The 6 MiB file in two parts (one multipart upload); the text file and the manifest in one PutObject each.
    expect(s3(rows, 'backup', 'Destination:Open').operations).toBe(1);
    expect(s3(rows, 'backup', 'Destination:Write').operations).toBe(2 + 2);
    expect(s3(rows, 'backup', 'Destination:Close').operations).toBe(1);
    // ListObjectsV2 (is the prefix empty?), CreateMultipartUpload, 2 × UploadPart, CompleteMultipartUpload, 2 × PutObject.
    expect(s3(rows, 'backup', 'AWS:Request:Send').operations).toBe(7);
    expect(s3(rows, 'backup', 'AWS:Request:Failed').operations).toBe(0);
    // The manifest and both objects are read back whole.
    expect(s3(rows, 'restore', 'Source:Open').operations).toBe(3);
    expect(s3(rows, 'restore', 'Source:Read').bytes).toBe(s3(rows, 'backup', 'Destination:Write').bytes);
    expect(s3(rows, 'restore', 'Source:Close').operations).toBe(3);
    expect(s3(rows, 'restore', 'AWS:Request:Send').operations).toBe(3);
    expect(row(rows, 'restore', 'BackupEngine', 'Restore')).toMatchObject({
      operations: 1,
      bytes: 6 * MiB + 21 * 5_000,
    });
    // The printed table has the same rows.
    expect(result.stdout).toMatch(/^backup\s+BackupStorage\/S3\s+AWS:Request:Send\s+7\s/m);
  });

  // Through tsx, as `pnpm demo` runs it: the one run of an s3:// storage on what users run (the demo's own S3
  // server is on tsx in no-warnings.test.ts; the rest of the file runs the compiled tool, at half the CPU).
  it('with --storage s3://bucket/prefix and AWS_ENDPOINT_URL: one AWS:Request:Send per request the server got', async () => {
    const server = await startS3Server();
    onTestFinished(() => server.stop());
    const proxy = await startS3Proxy(server);
    onTestFinished(() => proxy.stop());
    const direct = s3Client(server);
    onTestFinished(() => direct.destroy());
    await direct.send(new CreateBucketCommand({ Bucket: 'backups' }));

    const summary = join(dir, 'proxy-summary.json');
    const result = await runCli(
      [source, '--storage', 's3://backups/nightly/2026-11-30', '--summary-json', summary, '--quiet'],
      {
        env: {
          AWS_ENDPOINT_URL: proxy.url,
          AWS_REGION: 'eu-west-1',
          AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
          AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        },
        viaTsx: true,
      },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('in s3://backups/nightly/2026-11-30/');

    const rows = await readSummary(summary);
    const send = s3(rows, 'backup', 'AWS:Request:Send').operations + s3(rows, 'restore', 'AWS:Request:Send').operations;
    expect(send).toBe(proxy.counts.requests);
    const bytes = s3(rows, 'backup', 'AWS:Request:Send').bytes + s3(rows, 'restore', 'AWS:Request:Send').bytes;
    expect(bytes).toBe(proxy.counts.requestBodyBytes + proxy.counts.responseBodyBytes);
    // Bytes uploaded are the objects' sizes on the server.
    const listed = await direct.send(new ListObjectsV2Command({ Bucket: 'backups', Prefix: 'nightly/2026-11-30/' }));
    const stored = (listed.Contents ?? []).reduce((n, o) => n + (o.Size ?? 0), 0);
    expect(listed.Contents?.map((o) => o.Key).sort()).toEqual([
      'nightly/2026-11-30/000000.gz',
      'nightly/2026-11-30/000001.gz',
      'nightly/2026-11-30/MANIFEST.json',
    ]);
    expect(s3(rows, 'backup', 'Destination:Write').bytes).toBe(stored);
    expect(s3(rows, 'restore', 'Source:Read').bytes).toBe(stored);
  });

  it.skipIf(!haveNode22 && !requireE2E)(
    'runs the same S3 round trip on Node 22 (s3rver, the AWS SDK and meterS3Client)',
    async () => {
      const summary = join(dir, 'node22-summary.json');
      const result = await runCli([source, '--summary-json', summary, '--quiet'], { node: node22 });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const rows = await readSummary(summary);
      expect(s3(rows, 'backup', 'AWS:Request:Send').operations).toBe(7);
      expect(s3(rows, 'restore', 'Source:Read').bytes).toBe(s3(rows, 'backup', 'Destination:Write').bytes);
    },
  );
});
