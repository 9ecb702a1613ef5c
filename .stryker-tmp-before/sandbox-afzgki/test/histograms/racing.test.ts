// @ts-nocheck
// Count and sum stay exact when collections race the records: records made between, during and after collections
// all reach the cumulative histogram once, and a collection never sees a count that disagrees with its buckets.

import type { Histogram } from '@opentelemetry/sdk-metrics';
import { createBackupStats, createHistogramProducer } from 'backupstats';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { createHarness } from '../support/harness.js';

describe('collections racing records', () => {
  it('every record counted once, and every collected point consistent', async () => {
    const producer = createHistogramProducer();
    const harness = createHarness(undefined, undefined, [[producer]]);
    const stats = createBackupStats({
      meterProvider: harness.provider,
      histogramProducers: [producer],
      flushIntervalMillis: 1,
    });
    onTestFinished(async () => {
      await stats.shutdown();
      await harness.shutdown();
    });
    const op = stats.backup.scope({ operation: 'race' });
    let records = 0;
    let sumMillis = 0;
    const collections: Promise<void>[] = [];
    const seen: Histogram[] = [];
    for (let round = 0; round < 200; round++) {
      for (let i = 0; i < 50; i++) {
        const ms = ((round * 50 + i) % 97) + 0.5;
        op.timedIncrementBytes(1, ms);
        records += 1;
        sumMillis += ms;
      }
      // The producer as a reader calls it, many collections in flight at once.
      collections.push(
        producer.collect().then((collected) => {
          const point = collected.resourceMetrics.scopeMetrics[0]?.metrics[0]?.dataPoints[0]?.value as Histogram;
          seen.push(point);
        }),
      );
      // Let collections and the 1 ms flush timer run between rounds.
      if (round % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await Promise.all(collections);
    for (const point of seen) expect(point.buckets.counts.reduce((a, b) => a + b, 0)).toBe(point.count);
    const final = (await harness.collect()).scopeMetrics
      .flatMap((s) => s.metrics)
      .find((m) => m.descriptor.name === 'backup.operation.duration')?.dataPoints[0]?.value as Histogram;
    expect(final.count).toBe(records);
    expect(final.sum).toBeCloseTo(sumMillis / 1000, 9);
  });
});
