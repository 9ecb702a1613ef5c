// The demo's summary: a quantile never lies outside what was measured (a single operation's p50 once read as the
// middle of its bucket instead of the one duration there was). No operation is longer than the sum of all, so every
// p50 and p99 is at most the row's time, and one operation's p50 is its own time. And the summary's quantiles are
// the report's, for the same run: one estimator, not two that disagree.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BackupStatsReport } from 'backupstats/report';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readSummary, runCli } from '../../packages/examples/test-support/run-cli.js';

describe("the demo's summary quantiles", () => {
  it("stay within what was measured, a single operation's p50 its own time, and equal the report's", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'backupstats-quantiles-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const summary = join(dir, 'summary.json');
    const report = join(dir, 'report.html');
    const result = await runCli(
      [
        ...['--size', '2MiB', '--files', '6', '--storage', join(dir, 'storage')],
        ...['--summary-json', summary, '--report', report, '--quiet'],
      ],
      { timeoutMs: 120_000 },
    );
    expect(result.code, result.stderr).toBe(0);
    const rows = (await readSummary(summary)).filter((row) => row.p50Seconds !== undefined);
    expect(rows.length).toBeGreaterThan(5);
    const single = rows.filter((row) => row.operations === 1);
    expect(single.map((row) => row.operation)).toEqual(expect.arrayContaining(['Backup', 'Restore']));
    for (const row of rows) {
      const what = `${row.family} ${row.operation}: ${JSON.stringify(row)}`;
      // The report's figures, which the summary shows, keep six significant digits: a quantile at the measured time
      // may round up by half a unit of the sixth.
      expect(row.p50Seconds, what).toBeLessThanOrEqual(row.seconds * (1 + 5e-6));
      expect(row.p99Seconds, what).toBeLessThanOrEqual(row.seconds * (1 + 5e-6));
      // Six significant digits, not six decimals: a run that takes more than a second (a loaded machine) rounds in
      // the sixth decimal.
      if (row.operations === 1) {
        expect(Math.abs((row.p50Seconds as number) - row.seconds), what).toBeLessThanOrEqual(row.seconds * 5e-6);
      }
    }

    // The same figures as the report's page of the same run, series by series.
    const html = await readFile(report, 'utf8');
    const json = /<script type="application\/json" id="backupstats-report">([^<]*)<\/script>/.exec(html)?.[1];
    const data = JSON.parse(json as string) as BackupStatsReport;
    for (const row of rows) {
      const series = data.series.find(
        (s) =>
          s.family === row.family &&
          s.component === row.component &&
          s.implementation === row.implementation &&
          s.operation === row.operation,
      );
      const what = `${row.family} ${row.component}/${row.implementation} ${row.operation}`;
      expect({ p50: row.p50Seconds, p99: row.p99Seconds }, what).toEqual({ p50: series?.p50, p99: series?.p99 });
    }
  }, 150_000);
});
