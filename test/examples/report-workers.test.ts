// Worker threads' stages count in a run's busy shares: the demo with --workers 2 compresses and hashes in a piscina
// pool whose threads record through a link, and its report's backup run has those stages with the operations and
// bytes the pipeline exported, read at the run's end (the link is read then, not only at the next flush).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BackupStatsReport } from 'backupstats/report';
import { expect, onTestFinished } from 'vitest';
import { readSummary, runCli } from '../../packages/examples/test-support/run-cli.js';
import { it } from '../support/fixtures.js';

it("the demo's worker threads' stages are in its backup run, with the exported numbers", {
  timeout: 120_000,
}, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'backupstats-report-workers-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'report.html');
  const summaryPath = join(dir, 'summary.json');
  const demo = await runCli(
    [
      '--size',
      '8MiB',
      '--workers',
      '2',
      '--quiet',
      '--storage',
      join(dir, 'storage'),
      '--report',
      path,
      '--summary-json',
      summaryPath,
    ],
    // No flush by the timer during the run: what the workers recorded reaches the run only by its own read.
    { env: { BACKUPSTATS_FLUSH_INTERVAL_MS: '3600000' }, timeoutMs: 100_000 },
  );
  expect(demo.code, demo.stderr).toBe(0);
  const html = await readFile(path, 'utf8');
  const json = /<script type="application\/json" id="backupstats-report">([^<]*)<\/script>/.exec(html)?.[1];
  const data = JSON.parse(json as string) as BackupStatsReport;
  const backup = data.runs.find((run) => run.family === 'backup');
  const scopes = await readSummary(summaryPath);
  const compressor = backup?.stages.find((stage) => stage.operation === 'Compressor:Write');
  const exported = scopes.find((s) => s.family === 'backup' && s.operation === 'Compressor:Write');
  expect(exported?.operations).toBeGreaterThan(0);
  expect(compressor).toMatchObject({ count: exported?.operations, bytes: exported?.bytes });
  expect(compressor?.busyShare).toBeGreaterThan(0);
  expect(backup?.bottleneck?.sentence).toMatch(
    // Bound by that stage, or, when it was busy well under the run, the busiest of the stages that were metered.
    /^\S+ was busy \d+ % of the run(( \(\d+\.\d threads at once on average\))?: this backup is bound by |, the most of its metered stages )/,
  );
});
