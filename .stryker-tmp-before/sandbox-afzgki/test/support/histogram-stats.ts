// @ts-nocheck
// Stats with a histogram producer on a real MeterProvider, and their export read by labels: what the histogram,
// series and worker tests share.
import type { ExponentialHistogram, Histogram } from '@opentelemetry/sdk-metrics';
import { type BackupStatsOptions, createBackupStats, createHistogramProducer } from 'backupstats';
import { onTestFinished } from 'vitest';
import { createHarness, histograms, valuesByKey } from './harness.js';
import { runKey } from './series-key.js';

/**
 * Durations (ms) at the buckets' edges: zero, under 1 µs, on explicit boundaries (1 s, 2.5 ms), just past one, inside
 * buckets, over 1 h. A worker finds their buckets with code of its own, which must agree with the main thread's.
 */
export const EDGE_DURATIONS_MS = [
  0, 0.0004, 0.001, 0.01, 0.025, 0.3, 2.5, 2.5000001, 7, 999.9999, 1000, 1000.0000001, 4e6, 1e8,
] as const;

/** What one collection exported: counters by seriesKey, histograms by the labels' seriesKey. */
export interface Exported {
  readonly values: Map<string, number>;
  histogram(labels: { component?: string; implementation?: string; operation?: string }): Histogram | undefined;
}

/** Stats on a real provider whose reader has a histogram producer (`aggregation` as asked), shut down at the end. */
export function statsWithHistograms(
  options: BackupStatsOptions = {},
  aggregation: 'explicit' | 'exponential' = 'explicit',
) {
  const producer = createHistogramProducer({ aggregation });
  const harness = createHarness(undefined, undefined, [[producer]]);
  const stats = createBackupStats({ meterProvider: harness.provider, histogramProducers: [producer], ...options });
  onTestFinished(async () => {
    await stats.shutdown();
    await harness.shutdown();
  });
  return {
    stats,
    harness,
    async collect(): Promise<Exported> {
      const exported = await harness.collect();
      const byKey = histograms(exported);
      return {
        values: valuesByKey(exported),
        histogram: ({ component = '-', implementation = '-', operation = '-' }) =>
          byKey.get(runKey('backup.operation.duration', { component, implementation, operation })),
      };
    },
  };
}

/** True when a point's count is what its buckets hold (explicit or exponential). */
export function bucketsAddUp(point: Histogram | ExponentialHistogram): boolean {
  if ('buckets' in point) return point.buckets.counts.reduce((a, b) => a + b, 0) === point.count;
  return point.positive.bucketCounts.reduce((a, b) => a + b, 0) + point.zeroCount === point.count;
}
