// Ctrl-C (SIGINT) or SIGTERM in the middle of `pnpm demo`: the final totals are still exported, the backup run
// in progress among them as an interrupted failure, the exit status says which signal ended it, and the temporary
// storage and restore folders are gone.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { describe, expect, onTestFinished } from 'vitest';
import { startCli } from '../../packages/examples/test-support/run-cli.js';
import { it } from '../support/fixtures.js';
import { latest } from '../support/received-runs.js';
import { S3RVER_CREDENTIALS } from '../support/s3.js';

/** Exit codes a shell reports for a process ended by the signal (128 + its number). */
const SHELL_CODE = { SIGTERM: 143, SIGINT: 130 } as const;

/** The demo's temporary folders under `root` (its TMPDIR); tsx keeps its own cache there too. */
async function demoFolders(root: string): Promise<string[]> {
  return (await readdir(root)).filter((name) => name.startsWith('backupstats-demo-'));
}

/**
 * Objects stored so far in the bucket of the S3 server the demo started (it prints where), asked through the S3
 * API; the server keeps them in the demo's temporary folder.
 */
async function storedObjects(output: string): Promise<number> {
  const started = /^S3 server \(s3rver\) on (\S+), bucket (\S+)$/m.exec(output);
  const [, endpoint, bucket] = started ?? [];
  if (endpoint === undefined || bucket === undefined) return 0;
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3RVER_CREDENTIALS });
  try {
    const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
    return listed.KeyCount ?? 0;
  } finally {
    client.destroy();
  }
}

describe('a signal in the middle of pnpm demo', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} mid-backup: the final totals and the interrupted run are exported, the exit says ${signal}, no temporary folder is left`, async ({
      startReceiver,
    }) => {
      const root = await mkdtemp(join(tmpdir(), 'backupstats-signal-'));
      onTestFinished(() => rm(root, { recursive: true, force: true }));
      const receiver = await startReceiver('http');

      // Large enough that the backup is still running when the signal comes; the export interval is beyond the
      // test, so only the final export at the signal can deliver anything.
      const child = startCli(['--quiet', '--size', '256MiB', '--files', '64'], {
        env: {
          TMPDIR: root,
          OTEL_METRICS_EXPORTER: 'otlp',
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
          OTEL_METRIC_EXPORT_INTERVAL: '600000',
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        },
      });
      onTestFinished(() => child.kill());
      const output = (): string => `${child.stdout()}${child.stderr()}`;

      // Mid-backup: the first objects are stored (in the demo's S3 server, its data in the temporary folder), and
      // the backup goes on.
      await expect.poll(() => storedObjects(child.stdout()), { timeout: 50_000, interval: 50 }).toBeGreaterThan(0);
      expect(child.stdout()).not.toMatch(/^backup: /m);
      child.child.kill(signal);

      const end = await child.exited;
      expect(end.signal === signal || end.code === SHELL_CODE[signal], `${JSON.stringify(end)}\n${output()}`).toBe(
        true,
      );
      const key = 'backup.bytes{BackupEngine,Builtin,Source:Read}';
      expect(receiver.totals().get(key), output()).toBeGreaterThan(0);
      const run = { component: 'BackupEngine', implementation: 'Builtin', operation: 'Backup' };
      expect(latest(receiver, 'backup.runs', { ...run, outcome: 'failure', 'error.type': 'interrupted' })).toBe(1);
      expect(latest(receiver, 'backup.runs', { ...run, outcome: 'success' })).toBe(0);
      expect(await demoFolders(root)).toEqual([]);
    });
  }
});
