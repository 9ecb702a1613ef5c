// The demo's summary: a quantile never lies outside what was measured (not "Backup: 1 op, 1.453 s, p50 1.477 s",
// the middle of the bucket instead of the one duration there was). No operation is longer than the
// sum of all, so every p50 and p99 is at most the row's time, and one operation's p50 is its own time.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readSummary, runCli } from '../../packages/examples/test-support/run-cli.js';

describe("the demo's summary quantiles", () => {
  it('stay within what was measured: at most the row time, and a single operation is its own p50', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'backupstats-quantiles-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const summary = join(dir, 'summary.json');
    const result = await runCli(
      ['--size', '2MiB', '--files', '6', '--storage', join(dir, 'storage'), '--summary-json', summary, '--quiet'],
      { timeoutMs: 120_000 },
    );
    expect(result.code, result.stderr).toBe(0);
    const rows = (await readSummary(summary)).filter((row) => row.p50Seconds !== undefined);
    expect(rows.length).toBeGreaterThan(5);
    const single = rows.filter((row) => row.operations === 1);
    expect(single.map((row) => row.operation)).toEqual(expect.arrayContaining(['Backup', 'Restore']));
    for (const row of rows) {
      const what = `${row.family} ${row.operation}: ${JSON.stringify(row)}`;
      expect(row.p50Seconds, what).toBeLessThanOrEqual(row.seconds * (1 + 1e-9));
      expect(row.p99Seconds, what).toBeLessThanOrEqual(row.seconds * (1 + 1e-9));
      if (row.operations === 1) expect(row.p50Seconds, what).toBeCloseTo(row.seconds, 6);
    }
  }, 150_000);
});
