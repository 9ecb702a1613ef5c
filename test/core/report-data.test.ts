// What `backupstats/report` reads of live stats (reportData): it flushes them first, so that the series hold the
// records still pending, and stats created before a global MeterProvider look for it first; a run's stages count
// the overflow series like any other; the latency counts are the series' explicit buckets. Through a real
// MeterProvider, on a fake clock (Date and performance) where a value depends on time.
import { metrics } from '@opentelemetry/api';
import { createBackupStats, createHistogramProducer } from 'backupstats';
import { reportData } from 'backupstats/report';
import { describe, expect, onTestFinished, vi } from 'vitest';
import { it } from '../support/fixtures.js';
import { createHarness } from '../support/harness.js';

const ENGINE = { component: 'BackupEngine', implementation: 'Builtin' };
/** The flush timer far from firing: only reportData, a scope() or a collection flushes. */
const NOT_NOW = { flushIntervalMillis: 2 ** 30 };

describe('reportData of live stats', () => {
  it('flushes first: a series holds every record, those still pending since its first too', ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    onTestFinished(() => stats.shutdown());
    const read = stats.backup.scope({ ...ENGINE, operation: 'Source:Read' });
    // The first record of a series goes to the instruments at once; the next two wait for a flush.
    read.timedIncrementBytes(1000, 250);
    read.timedIncrementBytes(24, 500);
    read.timedIncrementBytes(1000, 250);
    expect(reportData(stats).series).toEqual([
      {
        family: 'backup',
        ...ENGINE,
        operation: 'Source:Read',
        overflow: false,
        count: 3,
        bytes: 2024,
        seconds: 1,
        p50: null,
        p90: null,
        p99: null,
      },
    ]);
  });

  it('of stats created before the global provider: finds it first, and holds what was recorded before', () => {
    const stats = createBackupStats(NOT_NOW);
    onTestFinished(() => stats.shutdown());
    const write = stats.restore.scope({ ...ENGINE, operation: 'Destination:Write' });
    write.timedIncrementBytes(512, 2);
    write.timedIncrementBytes(512, 2);
    const global = createHarness();
    expect(metrics.setGlobalMeterProvider(global.provider)).toBe(true);
    onTestFinished(async () => {
      metrics.disable();
      await global.shutdown();
    });
    expect(reportData(stats).series).toEqual([
      {
        family: 'restore',
        ...ENGINE,
        operation: 'Destination:Write',
        overflow: false,
        count: 2,
        bytes: 1024,
        seconds: 0.004,
        p50: null,
        p90: null,
        p99: null,
      },
    ]);
  });

  it("a run's stages count the overflow series: records past maxScopes during the run are one stage", ({ harness }) => {
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    vi.setSystemTime(Date.UTC(2026, 11, 1, 23, 0, 0));
    onTestFinished(() => {
      vi.useRealTimers();
    });
    // maxScopes 2: the root series and the overflow series; every scope() records into the overflow.
    const stats = createBackupStats({ meterProvider: harness.provider, maxScopes: 2, ...NOT_NOW });
    onTestFinished(() => stats.shutdown());
    const run = stats.backup.startRun();
    const read = stats.backup.scope({ ...ENGINE, operation: 'Source:Read' });
    read.timedIncrementBytes(4096, 300);
    read.timedIncrementBytes(4096, 200);
    vi.advanceTimersByTime(2000);
    run.succeed(8192);
    const [profile] = reportData(stats).runs;
    expect(profile?.stages).toEqual([
      {
        family: 'backup',
        component: 'overflow',
        implementation: 'overflow',
        operation: 'overflow',
        count: 2,
        bytes: 8192,
        seconds: 0.5,
        busyShare: 0.25,
      },
    ]);
  });

  it('the latency counts are the explicit buckets of the series, each duration in the bucket of its le', ({
    harness,
  }) => {
    const producer = createHistogramProducer({ aggregation: 'explicit' });
    const stats = createBackupStats({
      meterProvider: harness.provider,
      histogramProducers: [producer],
      histogramBoundaries: [0.001, 0.01],
      ...NOT_NOW,
    });
    onTestFinished(() => stats.shutdown());
    const write = stats.backup.scope({ ...ENGINE, operation: 'Destination:Write' });
    for (const ms of [0, 0.5, 1, 3, 10, 25, 40]) write.timedIncrement(ms);
    const { boundaries, latency } = reportData(stats);
    expect(boundaries).toEqual([0.001, 0.01]);
    expect(latency.map(({ family, operation, count, counts }) => ({ family, operation, count, counts }))).toEqual([
      { family: 'backup', operation: 'Destination:Write', count: 7, counts: [3, 2, 2] },
    ]);
  });
});
