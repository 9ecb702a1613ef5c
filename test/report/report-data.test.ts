// The report's data field by field, on vitest's fake clocks (`Date` for the times, `performance` for durations):
// each run's outcome, reason, times, bytes and what follows from them; the bounds that keep the page of many series
// small (the busiest stages of a run, the operations charted); what the report refuses.
import { createBackupStats } from 'backupstats';
import { type BackupStatsReport, REPORT_VERSION, reportData, writeReport } from 'backupstats/report';
import { afterEach, beforeEach, describe, expect, vi } from 'vitest';
import { createCountingProvider } from '../support/counting-provider.js';
import { it } from '../support/fixtures.js';
import { statsWithHistograms } from '../support/histogram-stats.js';

const START = 1_800_000_000_000;
const ENGINE = { component: 'BackupEngine', implementation: 'Builtin' };

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'performance'] });
  vi.setSystemTime(START);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('reportData runs', () => {
  it('have their outcome, reason, start, end, duration, bytes, stored bytes, ratio and rate, oldest first across families', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis: 2 ** 30 });
    const destination = stats.backup.scope({ component: 'BackupStorage', implementation: 'File' });
    const first = stats.backup.scope({ operation: 'Backup' }).startRun();
    vi.advanceTimersByTime(1000);
    const restore = stats.restore.scope({ operation: 'Restore' }).startRun();
    vi.advanceTimersByTime(1000);
    first.succeed(4000, { storedBytes: 1000 });
    vi.advanceTimersByTime(1000);
    restore.fail('timeout');
    const partial = stats.backup.scope({ operation: 'Backup' }).startRun();
    destination.scope({ operation: 'Destination:Write' }).timedIncrementBytes(700, 100);
    vi.advanceTimersByTime(500);
    partial.partial('source', 0);

    const report = reportData(stats);
    expect(report).toMatchObject({
      schema: 'backupstats-report',
      version: REPORT_VERSION,
      library: { name: 'backupstats' },
      createdAt: START,
      generatedAt: START + 3500,
      timelineKept: true,
      s3: null,
      storage: [],
    });
    const labels = { component: '-', implementation: '-' };
    expect(report.runs).toEqual([
      {
        family: 'backup',
        ...labels,
        operation: 'Backup',
        outcome: 'success',
        reason: null,
        startedAt: START,
        endedAt: START + 2000,
        seconds: 2,
        bytes: 4000,
        storedBytes: 1000,
        storedRatio: 0.25,
        bytesPerSecond: 2000,
        stages: [],
        bottleneck: null,
      },
      {
        family: 'restore',
        ...labels,
        operation: 'Restore',
        outcome: 'failure',
        reason: 'timeout',
        startedAt: START + 1000,
        endedAt: START + 3000,
        seconds: 2,
        bytes: null,
        storedBytes: null,
        storedRatio: null,
        bytesPerSecond: null,
        stages: [],
        bottleneck: null,
      },
      {
        family: 'backup',
        ...labels,
        operation: 'Backup',
        outcome: 'partial',
        reason: 'source',
        startedAt: START + 3000,
        endedAt: START + 3500,
        seconds: 0.5,
        bytes: 0,
        // Measured: what its family's destination wrote while it ran alone. No ratio to no bytes read.
        storedBytes: 700,
        storedRatio: null,
        bytesPerSecond: 0,
        stages: [
          {
            family: 'backup',
            component: 'BackupStorage',
            implementation: 'File',
            operation: 'Destination:Write',
            count: 1,
            bytes: 700,
            seconds: 0.1,
            busyShare: 0.2,
          },
        ],
        bottleneck: expect.objectContaining({ operation: 'Destination:Write', busyShare: 0.2 }),
      },
    ]);
    await stats.shutdown();
  });

  it('of no duration have no rate and no busy share, so no bottleneck', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis: 2 ** 30 });
    const run = stats.backup.scope({ operation: 'Backup' }).startRun();
    stats.backup.scope({ operation: 'Source:Read' }).timedIncrementBytes(10, 5);
    run.succeed(10);
    const report = reportData(stats);
    // No time passed between the samples either: no course over time to chart.
    expect(report).toMatchObject({ times: [], timelines: [] });
    const [only] = report.runs;
    expect(only).toMatchObject({ seconds: 0, bytes: 10, bytesPerSecond: null, bottleneck: null });
    expect(only?.stages).toEqual([expect.objectContaining({ operation: 'Source:Read', seconds: 0.005, busyShare: 0 })]);
    await stats.shutdown();
  });
});

describe('reportData series', () => {
  it('past maxScopes: the overflow series is flagged, its labels all "overflow"', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, maxScopes: 3 });
    stats.backup.scope({ ...ENGINE, operation: 'Source:Read' }).timedIncrementBytes(10, 1);
    stats.backup.scope({ ...ENGINE, operation: 'Source:Open' }).timedIncrement(1);
    expect(
      reportData(stats).series.map(({ overflow, component, operation }) => [overflow, component, operation]),
    ).toEqual([
      [false, 'BackupEngine', 'Source:Read'],
      [true, 'overflow', 'overflow'],
    ]);
    await stats.shutdown();
  });

  it('hold what was exported when the operations counter refused a flush, and all of it after the retry', async ({
    harness,
    diagnostics,
  }) => {
    const counting = createCountingProvider(harness.provider);
    const stats = createBackupStats({ meterProvider: counting.provider, flushIntervalMillis: 2 ** 30 });
    const read = stats.backup.scope({ ...ENGINE, operation: 'Source:Read' });
    // The first record goes to the instruments at once; the next two wait for a flush.
    for (let i = 0; i < 3; i++) read.timedIncrementBytes(100, 1);
    counting.failAdd('backup.operations', 1, new Error('refused'));
    expect(() => stats.flush()).toThrow('refused');
    // The report's own flush is refused too (said through diag): the series still holds the first record only.
    counting.failAdd('backup.operations', 1, new Error('refused'));
    expect(reportData(stats).series).toEqual([expect.objectContaining({ count: 1, bytes: 100, seconds: 0.001 })]);
    expect(diagnostics.messages).toHaveLength(1);
    expect(reportData(stats).series).toEqual([expect.objectContaining({ count: 3, bytes: 300, seconds: 0.003 })]);
    await stats.shutdown();
  });

  it('counted but never timed: no quantiles and no latency, with histograms kept', () => {
    const { stats } = statsWithHistograms();
    stats.backup.scope({ ...ENGINE, operation: 'Source:Read' }).timedIncrementBytes(10, 0, 0);
    const report = reportData(stats);
    expect(report.series).toEqual([expect.objectContaining({ count: 1, bytes: 10, p50: null, p90: null, p99: null })]);
    expect(report.latency).toEqual([]);
  });
});

describe('reportData of many operations', () => {
  it('lists the 24 busiest stages of a run, busiest first; charts the 16 operations with the most time, and the latency of the 16 with the most operations', () => {
    const { stats } = statsWithHistograms({ flushIntervalMillis: 2 ** 30 });
    const engine = stats.backup.scope({ component: 'BackupEngine', implementation: 'Builtin' });
    const run = engine.scope({ operation: 'Backup' }).startRun();
    // Op<i>: 30 - i operations taking (i + 1) * 10 ms in all, so the busiest are the ones with the fewest operations.
    // Half of them before a flush, half after, so that every operation has a course over time. Made in a shuffled
    // order, so that no ranking is the order of the series.
    for (const half of [0, 1]) {
      for (const i of Array.from({ length: 30 }, (_, k) => (k * 7) % 30)) {
        const operations = 30 - i;
        const scope = engine.scope({ operation: `Op${i}` });
        for (let n = half; n < operations; n += 2) scope.timedIncrementBytes(100, ((i + 1) * 10) / operations);
      }
      // Failed attempts, a subset of the attempts' time: the most time of all, yet neither a stage nor charted.
      for (let n = 0; n < 5; n++) engine.scope({ operation: 'AWS:Request:Failed' }).timedIncrementBytes(100, 1000);
      vi.advanceTimersByTime(1000);
      stats.flush();
    }
    run.succeed(1000);
    const report = reportData(stats);
    const ops = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => `Op${from + k}`);

    const [only] = report.runs;
    expect(only?.stages.map((s) => s.operation)).toEqual(ops(6, 30).reverse());
    expect(only?.bottleneck?.operation).toBe('Op29');
    // Its stages' shares, all 30 of them summed, cover the run: no part of it went to unmetered work.
    expect(only?.bottleneck?.sentence).toMatch(/no single stage bounds this backup$/);
    expect(report.timelines.map((t) => t.operation).sort()).toEqual(ops(14, 30).sort());
    expect(report.times).toHaveLength(120);
    expect(report.latency.map((l) => l.operation).sort()).toEqual(ops(0, 16).sort());
    expect(report.series).toHaveLength(31);
    for (const series of report.series) {
      expect(series.p50, series.operation).toBeGreaterThan(0);
      expect(series.p99, series.operation).toBeGreaterThanOrEqual(series.p90 as number);
      expect(series.p90, series.operation).toBeGreaterThanOrEqual(series.p50 as number);
    }
  });
});

describe('the report refuses', () => {
  /** What `call` threw, or the reason it rejected with. */
  async function failure(call: () => unknown): Promise<Error & { code?: string }> {
    try {
      await call();
    } catch (error) {
      return error as Error & { code?: string };
    }
    throw new Error('no error');
  }

  it('what are not stats of this library, naming the function and what it accepts', async () => {
    for (const value of [{}, null, 'stats']) {
      for (const [fn, call] of [
        ['reportData', () => reportData(value as never)],
        ['writeReport', () => writeReport(value as never, '/nonexistent/report.html')],
      ] as const) {
        const error = await failure(call);
        expect(error).toBeInstanceOf(TypeError);
        expect(error.code).toBe('BACKUPSTATS_INVALID_ARGUMENT');
        expect(error.message).toMatch(
          new RegExp(
            `^backupstats: ${fn} stats is .*; accepted: stats from createBackupStats\\(\\) or startBackupStats\\(\\)`,
          ),
        );
      }
    }
  });

  it('a path that is no file name, before writing anything', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    for (const path of ['', '  ', 7]) {
      const error = await failure(() => writeReport(stats, path as never));
      expect(error).toBeInstanceOf(TypeError);
      expect(error.code).toBe('BACKUPSTATS_INVALID_ARGUMENT');
      expect(error.message).toMatch(
        /^backupstats: writeReport path is .*; accepted: the path of the HTML file to write/,
      );
    }
    await stats.shutdown();
  });
});

describe('stats that keep no timeline', () => {
  it('report their series and runs, with timelineKept false and no course over time', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis: 0 });
    const run = stats.backup.scope({ operation: 'Backup' }).startRun();
    stats.backup.scope({ operation: 'Source:Read' }).timedIncrementBytes(10, 5);
    vi.advanceTimersByTime(1000);
    run.succeed(10);
    const report: BackupStatsReport = reportData(stats);
    expect(report).toMatchObject({ timelineKept: false, times: [], timelines: [] });
    expect(report.runs).toEqual([expect.objectContaining({ outcome: 'success', seconds: 1, storedBytes: null })]);
    await stats.shutdown();
  });
});
