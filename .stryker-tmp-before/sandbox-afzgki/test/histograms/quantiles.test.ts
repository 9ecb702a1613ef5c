// @ts-nocheck
// On a known distribution (a seeded lognormal, 50,000 durations around 20 ms), the exported histograms locate the
// true p50, p90 and p99: inside the explicit bucket where the cumulative count crosses them (Prometheus), and
// within 10 % from the exponential buckets (OTLP's base-2 histogram at scale 3, buckets 9 % wide).

import type { ExponentialHistogram, Histogram, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { createBackupStats, createHistogramProducer, type HistogramAggregation } from 'backupstats';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { createHarness } from '../support/harness.js';

const N = 50_000;

/** mulberry32, then Box-Muller: lognormal durations in ms with median 20 ms and σ = 1 (in log space). */
function lognormal(seed: number): number[] {
  let state = seed >>> 0;
  const uniform = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 1) / 4294967297;
  };
  return Array.from(
    { length: N },
    () => 20 * Math.exp(Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform())),
  );
}

const QUANTILES = [0.5, 0.9, 0.99];

/** The true quantile of `values` (ms), as the value of rank ⌈q N⌉. */
function trueQuantile(sorted: readonly number[], q: number): number {
  return sorted[Math.ceil(q * sorted.length) - 1] as number;
}

async function exported(aggregation: HistogramAggregation, values: readonly number[]): Promise<ResourceMetrics> {
  const producer = createHistogramProducer({ aggregation });
  const harness = createHarness(undefined, undefined, [[producer]]);
  const stats = createBackupStats({ meterProvider: harness.provider, histogramProducers: [producer] });
  onTestFinished(async () => {
    await stats.shutdown();
    await harness.shutdown();
  });
  const op = stats.backup.scope({ operation: 'Source:Read' });
  for (const ms of values) op.timedIncrementBytes(4096, ms);
  return harness.collect();
}

function pointOf<T>(metrics: ResourceMetrics): T {
  const metric = metrics.scopeMetrics
    .flatMap((s) => s.metrics)
    .find((m) => m.descriptor.name === 'backup.operation.duration');
  return metric?.dataPoints[0]?.value as T;
}

describe('quantiles of a seeded lognormal', () => {
  const values = lognormal(19);
  const sorted = [...values].sort((a, b) => a - b);

  it('explicit buckets (Prometheus): each true quantile lies in the bucket where the cumulative count crosses it', async () => {
    const point = pointOf<Histogram>(await exported('explicit', values));
    expect(point.count).toBe(N);
    const { boundaries, counts } = point.buckets;
    for (const q of QUANTILES) {
      let cumulative = 0;
      const bucket = counts.findIndex((count) => {
        cumulative += count;
        return cumulative >= q * N;
      });
      const seconds = trueQuantile(sorted, q) / 1000;
      const lower = bucket === 0 ? 0 : (boundaries[bucket - 1] as number);
      const upper = bucket === boundaries.length ? Number.POSITIVE_INFINITY : (boundaries[bucket] as number);
      expect({ q, inBucket: seconds > lower && seconds <= upper }).toEqual({ q, inBucket: true });
    }
  });

  it('exponential buckets (OTLP): each quantile read from the buckets is within 10 % of the true one', async () => {
    const point = pointOf<ExponentialHistogram>(await exported('exponential', values));
    expect(point.count).toBe(N);
    expect(point.scale).toBe(3);
    const base = 2 ** (2 ** -point.scale);
    for (const q of QUANTILES) {
      let cumulative = point.zeroCount;
      const at = point.positive.bucketCounts.findIndex((count) => {
        cumulative += count;
        return cumulative >= q * N;
      });
      const index = point.positive.offset + at;
      // The bucket's geometric middle: within half a bucket (4.4 %) of any value in it.
      const estimate = base ** (index + 0.5);
      const truth = trueQuantile(sorted, q) / 1000;
      expect(Math.abs(estimate / truth - 1)).toBeLessThan(0.1);
    }
  });
});
