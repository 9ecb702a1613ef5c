// @ts-nocheck
// The local histograms through the public API and the real SDK: every duration lands in OpenTelemetry's scale-3
// exponential bucket and in the explicit bucket of its `le`, count, sum, min and max are exact, and the weight of
// sampled timing multiplies what a duration adds.

import type { ExponentialHistogram, Histogram, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { createBackupStats, createHistogramProducer, DEFAULT_HISTOGRAM_BOUNDARIES } from 'backupstats';
import fc from 'fast-check';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { createHarness } from '../support/harness.js';
import { statsWithHistograms } from '../support/histogram-stats.js';

/** The histogram points of `name`, by their operation label. */
function pointsOf<T>(exported: ResourceMetrics, name: string): Map<string, T> {
  const found = new Map<string, T>();
  for (const scope of exported.scopeMetrics) {
    for (const metric of scope.metrics) {
      if (metric.descriptor.name !== name) continue;
      for (const point of metric.dataPoints) found.set(String(point.attributes.operation), point.value as T);
    }
  }
  return found;
}

/** OpenTelemetry's definition of the scale-3 index, by logarithm: 2^(i/8) < s ≤ 2^((i+1)/8), kept in -160 … 94. */
const referenceIndex = (seconds: number): number => Math.max(-160, Math.min(94, Math.ceil(Math.log2(seconds) * 8) - 1));

/** Not within a relative 1e-9 of a bucket boundary, where the logarithm's rounding could disagree. */
const clearOfBoundary = (seconds: number): boolean => {
  const scaled = Math.log2(seconds) * 8;
  return Math.abs(scaled - Math.round(scaled)) > 1e-6;
};

describe('exponential buckets', () => {
  it('put every duration, 0.1 µs to 10 h, in the bucket OpenTelemetry defines at scale 3', async () => {
    const seconds = fc
      .sample(
        fc.double({ min: -7, max: Math.log10(36_000), noNaN: true }).map((exponent) => 10 ** exponent),
        { numRuns: 1500, seed: 19 },
      )
      .filter(clearOfBoundary);
    const { stats, harness } = statsWithHistograms({ maxScopes: 4000 }, 'exponential');
    seconds.forEach((s, i) => {
      stats.backup.scope({ operation: String(i) }).timedIncrement(s * 1000);
    });
    const points = pointsOf<ExponentialHistogram>(await harness.collect(), 'backup.operation.duration');
    expect(points.size).toBe(seconds.length);
    seconds.forEach((s, i) => {
      const point = points.get(String(i)) as ExponentialHistogram;
      expect(point.scale).toBe(3);
      expect({ s, offset: point.positive.offset, counts: point.positive.bucketCounts }).toEqual({
        s,
        offset: referenceIndex(s),
        counts: [1],
      });
    });
  });

  it('count, sum, min and max are exact; 0 goes to the zero count; a weight counts that many times', async () => {
    const { stats, harness } = statsWithHistograms({}, 'exponential');
    const op = stats.backup.scope({ operation: 'w' });
    op.timedIncrement(2.5);
    op.timedIncrement(0);
    op.timedIncrementBytes(10, 0.004, 16);
    op.timedIncrementBytes(10, 7, 0);
    const point = pointsOf<ExponentialHistogram>(await harness.collect(), 'backup.operation.duration').get('w');
    expect(point).toMatchObject({ count: 18, zeroCount: 1, min: 0, max: 0.0025 });
    expect(point?.sum).toBeCloseTo(0.0025 + 16 * 0.000004, 12);
    expect(point?.positive.bucketCounts.reduce((a, b) => a + b, 0)).toBe(17);
  });
});

describe('explicit buckets', () => {
  it('count every duration in the bucket of its le, the boundaries themselves included (le is ≤)', async () => {
    const { stats, harness } = statsWithHistograms({}, 'explicit');
    const values = [...DEFAULT_HISTOGRAM_BOUNDARIES, ...DEFAULT_HISTOGRAM_BOUNDARIES.map((b) => b * 1.0001), 1e-7, 1e5];
    values.forEach((s, i) => {
      stats.restore.scope({ operation: String(i) }).timedIncrement(s * 1000);
    });
    const points = pointsOf<Histogram>(await harness.collect(), 'restore.operation.duration');
    values.forEach((s, i) => {
      const point = points.get(String(i)) as Histogram;
      expect(point.buckets.boundaries).toEqual([...DEFAULT_HISTOGRAM_BOUNDARIES]);
      const expected = DEFAULT_HISTOGRAM_BOUNDARIES.filter((b) => b < s).length;
      expect({ s, bucket: point.buckets.counts.indexOf(1) }).toEqual({ s, bucket: expected });
      expect(point.buckets.counts.reduce((a, b) => a + b, 0)).toBe(1);
    });
  });

  it('take the boundaries given as an option, and refuse boundaries that are not increasing seconds above 0', async () => {
    const { stats, harness } = statsWithHistograms({ histogramBoundaries: [0.001, 0.01] }, 'explicit');
    stats.backup.scope({ operation: 'a' }).timedIncrement(5);
    const point = pointsOf<Histogram>(await harness.collect(), 'backup.operation.duration').get('a');
    expect(point?.buckets).toEqual({ boundaries: [0.001, 0.01], counts: [0, 1, 0] });
    for (const bad of [[], [0.1, 0.1], [0, 1], [Number.POSITIVE_INFINITY], ['1'], 0.5]) {
      expect(() => createBackupStats({ histogramBoundaries: bad as never })).toThrow(
        /^backupstats: option histogramBoundaries is .*; accepted: 1 to 64 finite numbers of seconds above 0, in increasing order/,
      );
    }
  });
});

describe('what the producer hands over', () => {
  it('nothing when histograms are off; the counters are exported all the same', async () => {
    const { stats, harness } = statsWithHistograms({ histograms: false }, 'explicit');
    stats.backup.scope({ operation: 'x' }).timedIncrementBytes(5, 3);
    const exported = await harness.collect();
    const names = exported.scopeMetrics.flatMap((s) => s.metrics.map((m) => m.descriptor.name));
    expect(names).toContain('backup.operations');
    expect(names.filter((n) => n.endsWith('.duration'))).toEqual([]);
  });

  it('a reader without the producer exports the counters alone, exact', async () => {
    const harness = createHarness();
    onTestFinished(() => harness.shutdown());
    const stats = createBackupStats({ meterProvider: harness.provider });
    stats.backup.timedIncrementBytes(5, 3);
    const exported = await harness.collect();
    const names = exported.scopeMetrics.flatMap((s) => s.metrics.map((m) => m.descriptor.name));
    expect(names).toContain('backup.bytes');
    expect(names.filter((n) => n.endsWith('.duration'))).toEqual([]);
    await stats.shutdown();
  });

  it('two stats on one producer are one instrument with the series of both, in seconds, cumulative', async () => {
    const producer = createHistogramProducer();
    const harness = createHarness(undefined, undefined, [[producer]]);
    onTestFinished(() => harness.shutdown());
    const one = createBackupStats({ meterProvider: harness.provider, histogramProducers: [producer] });
    const two = createBackupStats({ meterProvider: harness.provider, histogramProducers: [producer] });
    one.backup.scope({ operation: 'one' }).timedIncrement(1);
    two.backup.scope({ operation: 'two' }).timedIncrement(1);
    const exported = await harness.collect();
    const metrics = exported.scopeMetrics
      .flatMap((s) => s.metrics)
      .filter((m) => m.descriptor.name === 'backup.operation.duration');
    expect(metrics).toHaveLength(1);
    expect(metrics[0]?.descriptor).toMatchObject({ unit: 's', description: 'Duration of backup operations.' });
    expect(metrics[0]?.aggregationTemporality).toBe(1);
    expect(metrics[0]?.dataPoints.map((p) => p.attributes.operation).sort()).toEqual(['one', 'two']);
    await one.shutdown();
    await two.shutdown();
  });

  it('refuses an aggregation it does not know, and a producer it did not make', () => {
    expect(() => createHistogramProducer({ aggregation: 'summary' as never })).toThrow(
      'backupstats: createHistogramProducer option aggregation is "summary"; accepted: "explicit" or "exponential"',
    );
    expect(() => createBackupStats({ histogramProducers: [{ collect: async () => ({}) }] as never })).toThrow(
      /option histogramProducers is a value that createHistogramProducer\(\) did not make/,
    );
  });
});
