// BACKUPSTATS_REPORT_PATH: the shutdown writes the report page there, atomically (nothing but the page is left in
// its folder), with every run, the one the shutdown interrupted too; a page that cannot be written is reported, and the
// shutdown still resolves.
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BackupStatsReport } from 'backupstats/report';
import { startBackupStats } from 'backupstats/setup';
import { expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';

async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'backupstats-report-path-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function embedded(html: string): BackupStatsReport {
  const json = /<script type="application\/json" id="backupstats-report">([^<]*)<\/script>/.exec(html)?.[1];
  return JSON.parse(json as string) as BackupStatsReport;
}

it('is written at shutdown, atomically, with the run the shutdown interrupted', async () => {
  const dir = await folder();
  const path = join(dir, 'report.html');
  const stats = await startBackupStats({ env: { OTEL_METRICS_EXPORTER: 'none', BACKUPSTATS_REPORT_PATH: path } });
  const engine = stats.backup.scope({ component: 'BackupEngine', implementation: 'Builtin' });
  engine.scope({ operation: 'Backup' }).startRun();
  engine.scope({ operation: 'Source:Read' }).timedIncrementBytes(4096, 2);
  expect(await readdir(dir)).toEqual([]);
  await stats.shutdown();

  expect(await readdir(dir)).toEqual(['report.html']);
  const data = embedded(await readFile(path, 'utf8'));
  expect(data.runs).toMatchObject([{ operation: 'Backup', outcome: 'failure', reason: 'interrupted' }]);
  expect(data.runs[0]?.stages).toMatchObject([{ operation: 'Source:Read', count: 1, bytes: 4096 }]);
  expect(data.series.find((s) => s.operation === 'Source:Read')).toMatchObject({ count: 1, bytes: 4096 });
});

it('that cannot be written is said, and the shutdown resolves', async ({ diagnostics }) => {
  const dir = await folder();
  const path = join(dir, 'gone', 'report.html');
  await mkdir(join(dir, 'gone'));
  const stats = await startBackupStats({ env: { OTEL_METRICS_EXPORTER: 'none', BACKUPSTATS_REPORT_PATH: path } });
  await rm(join(dir, 'gone'), { recursive: true });
  await expect(stats.shutdown()).resolves.toBeUndefined();
  expect(diagnostics.messages.join('\n')).toContain(`the report ${path} (BACKUPSTATS_REPORT_PATH) was not written`);
});
