// What a histogram producer's collect() resolves with, whole, as a MetricReader receives it: one scope (backupstats
// and its version) holding one cumulative metric per family, each series a point from the time of its first record
// to the collection, its buckets in seconds; the exponential buckets trimmed to those with weight; no scope at all
// while no series has a record.

import { createBackupStats, createHistogramProducer, type HistogramAggregation } from 'backupstats';
import { VERSION } from 'backupstats/testing';
import { describe, expect, onTestFinished, vi } from 'vitest';
import { exactBucket } from '../support/exact-buckets.js';
import { it } from '../support/fixtures.js';

/** Stats on a producer of `aggregation` (no reader: the test calls collect() as a reader would). */
function statsOn(aggregation: HistogramAggregation, options: Record<string, unknown> = {}) {
  const producer = createHistogramProducer({ aggregation });
  const stats = createBackupStats({ histogramProducers: [producer], ...options });
  onTestFinished(() => stats.shutdown());
  return { stats, producer };
}

/** A fake wall clock (Date only) set to `unixMillis`, real again when the test ends. */
function wallClockAt(unixMillis: number): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(unixMillis);
  onTestFinished(() => {
    vi.useRealTimers();
  });
}

const SCOPE = { name: 'backupstats', version: VERSION };
const DESCRIPTOR = { name: 'backup.operation.duration', description: 'Duration of backup operations.', unit: 's' };
const RESTORE_DESCRIPTOR = {
  ...DESCRIPTOR,
  name: 'restore.operation.duration',
  description: 'Duration of restore operations.',
};
/** ValueType.DOUBLE, AggregationTemporality.CUMULATIVE, DataPointType.HISTOGRAM and EXPONENTIAL_HISTOGRAM. */
const [DOUBLE, CUMULATIVE, HISTOGRAM, EXPONENTIAL_HISTOGRAM] = [1, 1, 0, 1];
const LABELS = { component: '-', implementation: '-', operation: 'w' };

describe('the collection a producer hands over', () => {
  it('no scope while no series has a record (scopes made but never recorded included), and no errors', async () => {
    const { stats, producer } = statsOn('explicit');
    stats.backup.scope({ operation: 'idle' });
    stats.restore.scope({ operation: 'idle' });
    expect(await producer.collect()).toEqual({
      resourceMetrics: { resource: { attributes: {} }, scopeMetrics: [] },
      errors: [],
    });
  });

  it('explicit: every field of the point, times as [seconds, nanoseconds] from the first record to the collection', async () => {
    wallClockAt(1_700_000_000_123);
    const { stats, producer } = statsOn('explicit', { histogramBoundaries: [0.001, 0.01] });
    const op = stats.backup.scope({ operation: 'w' });
    vi.setSystemTime(1_700_000_005_000);
    op.timedIncrement(0, 2);
    op.timedIncrement(4);
    op.timedIncrement(25, 3);
    vi.setSystemTime(1_700_000_042_987);
    expect(await producer.collect()).toEqual({
      resourceMetrics: {
        resource: { attributes: {} },
        scopeMetrics: [
          {
            scope: SCOPE,
            metrics: [
              {
                descriptor: { ...DESCRIPTOR, valueType: DOUBLE },
                aggregationTemporality: CUMULATIVE,
                dataPointType: HISTOGRAM,
                dataPoints: [
                  {
                    startTime: [1_700_000_000, 123_000_000],
                    endTime: [1_700_000_042, 987_000_000],
                    attributes: LABELS,
                    value: {
                      buckets: { boundaries: [0.001, 0.01], counts: [2, 1, 3] },
                      sum: 0.079,
                      count: 6,
                      min: 0,
                      max: 0.025,
                    },
                  },
                ],
              },
            ],
          },
        ],
      },
      errors: [],
    });
  });

  it('exponential: scale 3, the buckets from the first to the last with weight, no negative ones, min and max', async () => {
    wallClockAt(1_600_000_000_999);
    const { stats, producer } = statsOn('exponential');
    const op = stats.backup.scope({ operation: 'w' });
    op.timedIncrement(3, 2);
    op.timedIncrement(5);
    op.timedIncrement(2.9);
    const [first, last] = [exactBucket(3), exactBucket(5)];
    expect(exactBucket(2.9)).toBe(first);
    vi.setSystemTime(1_600_000_001_001);
    const collected = await producer.collect();
    expect(collected.resourceMetrics.scopeMetrics).toEqual([
      {
        scope: SCOPE,
        metrics: [
          {
            descriptor: { ...DESCRIPTOR, valueType: DOUBLE },
            aggregationTemporality: CUMULATIVE,
            dataPointType: EXPONENTIAL_HISTOGRAM,
            dataPoints: [
              {
                startTime: [1_600_000_000, 999_000_000],
                endTime: [1_600_000_001, 1_000_000],
                attributes: LABELS,
                value: {
                  count: 4,
                  sum: (3 * 2 + 5 + 2.9) / 1000,
                  scale: 3,
                  zeroCount: 0,
                  positive: { offset: first, bucketCounts: [3, ...Array(last - first - 1).fill(0), 1] },
                  negative: { offset: 0, bucketCounts: [] },
                  min: 0.0029,
                  max: 0.005,
                },
              },
            ],
          },
        ],
      },
    ]);
  });

  it('exponential: a series of zeros only has no positive bucket', async () => {
    const { stats, producer } = statsOn('exponential');
    stats.restore.scope({ operation: 'w' }).timedIncrement(0, 4);
    const [metric] = (await producer.collect()).resourceMetrics.scopeMetrics[0]?.metrics ?? [];
    expect(metric?.descriptor).toEqual({ ...RESTORE_DESCRIPTOR, valueType: DOUBLE });
    expect(metric?.dataPoints.map((p) => p.value)).toEqual([
      {
        count: 4,
        sum: 0,
        scale: 3,
        zeroCount: 4,
        positive: { offset: 0, bucketCounts: [] },
        negative: { offset: 0, bucketCounts: [] },
        min: 0,
        max: 0,
      },
    ]);
  });

  it('both families, one metric each, in one scope', async () => {
    const { stats, producer } = statsOn('explicit');
    stats.backup.scope({ operation: 'w' }).timedIncrement(1);
    stats.restore.scope({ operation: 'w' }).timedIncrement(2);
    stats.restore.scope({ operation: 'v' }).timedIncrement(3);
    const { scopeMetrics } = (await producer.collect()).resourceMetrics;
    expect(scopeMetrics.map((s) => s.scope)).toEqual([SCOPE]);
    expect(
      scopeMetrics[0]?.metrics.map((m) => [m.descriptor.name, m.dataPoints.map((p) => p.attributes.operation)]),
    ).toEqual([
      ['backup.operation.duration', ['w']],
      ['restore.operation.duration', ['w', 'v']],
    ]);
  });
});
