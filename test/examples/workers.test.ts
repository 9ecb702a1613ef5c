// The demo with --workers 2: the backup's compression and checksums run in a piscina pool of worker threads, each
// metering its stages through a link of the main thread's stats. What the OpenTelemetry pipeline exported equals
// what the same data gives with no workers: every scope's bytes, and the operations of every scope whose count does
// not depend on timing (a file storage's writes are batched by the stream as they come, with or without workers).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readRuns, readSummary, runCli } from '../../packages/examples/test-support/run-cli.js';

describe('the demo with --workers', () => {
  it('exports the same totals with the backup compressed in worker threads as without', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'backupstats-workers-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    // The run that generates the data is the run without workers: it backs the data up, restores and verifies it
    // as a run of a given folder does, and keeps it (--keep) for the run with workers.
    const summary = join(dir, 'without.json');
    const generated = await runCli([
      '--size',
      '1MiB',
      '--files',
      '25',
      '--keep',
      '--quiet',
      '--storage',
      join(dir, 'without'),
      '--summary-json',
      summary,
    ]);
    expect(generated.code, generated.stderr).toBe(0);
    expect(generated.stdout).toContain('verified: every size and sha256 matches the source');
    const kept = /kept: (.+)/.exec(generated.stdout)?.[1] as string;
    onTestFinished(() => rm(kept, { recursive: true, force: true }));
    const source = join(kept, 'source');
    const without = { rows: await readSummary(summary), runs: await readRuns(summary) };
    const run = async (name: string, extra: string[], viaTsx = false) => {
      const summary = join(dir, `${name}.json`);
      const result = await runCli(
        [source, '--quiet', '--storage', join(dir, name), '--summary-json', summary, ...extra],
        { viaTsx },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('verified: every size and sha256 matches the source');
      return { rows: await readSummary(summary), runs: await readRuns(summary) };
    };
    // Through tsx, as `pnpm demo --workers 2` runs: its workers register tsx themselves (compress-task.mjs), which
    // the compiled tool the other runs use never does.
    const withWorkers = await run('with', ['--workers', '2'], true);
    const key = (r: { family: string; component: string; operation: string }) =>
      `${r.family} ${r.component} ${r.operation}`;
    const timingDependent = new Set([
      'backup BackupStorage Destination:Write',
      'restore BackupEngine Destination:Write',
    ]);
    const shape = (rows: typeof without.rows) =>
      rows
        .map((r) => ({ key: key(r), bytes: r.bytes, operations: timingDependent.has(key(r)) ? '-' : r.operations }))
        .sort((a, b) => a.key.localeCompare(b.key));
    expect(shape(withWorkers.rows)).toEqual(shape(without.rows));
    expect(withWorkers.rows.find((r) => key(r) === 'backup BackupEngine Compressor:Write')?.bytes).toBe(1024 * 1024);
    expect(withWorkers.runs).toEqual(without.runs);
  });
});
