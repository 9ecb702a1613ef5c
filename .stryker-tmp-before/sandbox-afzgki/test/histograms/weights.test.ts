// @ts-nocheck
// Sampled timing's weights reach the histograms: a timed operation adds its own duration N times (the
// operations of its block), an untimed one adds nothing, so the histogram's count is the number of operations
// its blocks stand for and its sum the same estimate as the time counter.
import { Writable } from 'node:stream';
import type { Histogram } from '@opentelemetry/sdk-metrics';
import { createBackupStats, createHistogramProducer, meterWritable } from 'backupstats';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { finished, spend, useFakeClock } from '../support/fake-clock.js';
import { createHarness, valuesByKey } from '../support/harness.js';

useFakeClock();

describe('weights of sampled timing in the histograms', () => {
  it('timeOneIn 4: each timed write adds its duration four times; the untimed add nothing', async () => {
    // The last place of every block of four is the one timed.
    vi.spyOn(Math, 'random').mockReturnValue(3.5 / 4);
    const producer = createHistogramProducer();
    const harness = createHarness(undefined, undefined, [[producer]]);
    const stats = createBackupStats({ meterProvider: harness.provider, histogramProducers: [producer] });
    onTestFinished(async () => {
      await stats.shutdown();
      await harness.shutdown();
    });
    const costs = [1, 2, 3, 40, 5, 6, 7, 300];
    let i = 0;
    const sink = meterWritable(
      new Writable({
        highWaterMark: 1,
        write(_chunk, _encoding, callback) {
          spend(costs[i] as number);
          i += 1;
          setImmediate(callback);
        },
      }),
      stats.backup.scope({ operation: 'w' }),
      { timeOneIn: 4 },
    );
    for (const _cost of costs) {
      await new Promise<void>((resolve) => sink.write(Buffer.alloc(1), () => resolve()));
    }
    sink.end();
    await finished(sink);
    const exported = await harness.collect();
    const point = exported.scopeMetrics
      .flatMap((s) => s.metrics)
      .find((m) => m.descriptor.name === 'backup.operation.duration')?.dataPoints[0]?.value as Histogram;
    expect(point.count).toBe(8);
    expect(point.sum).toBeCloseTo((4 * 40 + 4 * 300) / 1000, 9);
    expect(point).toMatchObject({ min: 0.04, max: 0.3 });
    // 40 ms is in (25 ms, 50 ms], 300 ms in (250 ms, 500 ms]: four each.
    const { boundaries, counts } = point.buckets;
    expect(counts[boundaries.indexOf(0.05)]).toBe(4);
    expect(counts[boundaries.indexOf(0.5)]).toBe(4);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(8);
    // The time counter holds the same estimate.
    expect(valuesByKey(exported).get('backup.time{-,-,w}')).toBeCloseTo(1.36, 9);
  });
});
