// A job that writes its report page itself while BACKUPSTATS_REPORT_PATH names the same file: when SIGTERM ends it
// in the middle of one of its writes, the page the shutdown writes (with the run it interrupted) is the one left,
// and no temporary file stays beside it.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BackupStatsReport } from 'backupstats/report';
import { expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';

const fixture = fileURLToPath(new URL('../fixtures/report-job.mjs', import.meta.url));
/** Exit codes a shell reports for a process killed by SIGTERM (128 + its number). */
const SHELL_CODE = 143;

function embedded(html: string): BackupStatsReport {
  const json = /<script type="application\/json" id="backupstats-report">([^<]*)<\/script>/.exec(html)?.[1];
  return JSON.parse(json as string) as BackupStatsReport;
}

it('keeps the run a SIGTERM interrupted in the page, whatever write of the job was under way', {
  timeout: 120_000,
}, async ({ startFixture }) => {
  const dir = await mkdtemp(join(tmpdir(), 'backupstats-report-signal-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'report.html');
  const outcomes: string[] = [];
  const left: string[] = [];
  for (let job = 0; job < 4; job++) {
    const child = startFixture(fixture, { OTEL_METRICS_EXPORTER: 'none', BACKUPSTATS_REPORT_PATH: path });
    await child.waitForEvent('written');
    child.child.kill('SIGTERM');
    const end = await child.exited();
    expect(end.signal === 'SIGTERM' || end.code === SHELL_CODE, `${JSON.stringify(end)}\n${child.stderr()}`).toBe(true);
    const run = embedded(await readFile(path, 'utf8')).runs.at(-1);
    outcomes.push(`${run?.outcome ?? 'no run'} ${run?.reason ?? ''}`.trim());
    left.push(...(await readdir(dir)).filter((name) => name !== 'report.html'));
  }
  expect(outcomes).toEqual(Array.from({ length: 4 }, () => 'failure interrupted'));
  expect(left, 'files left beside the page').toEqual([]);
});
