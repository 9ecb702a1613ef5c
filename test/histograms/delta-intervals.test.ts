// What a delta producer hands over at each collection, point by point and exactly: the interval's count, sum, zero
// count and buckets (exponential and explicit), its start (the previous collection, or the series' start when it
// began after it), and min and max only when the interval holds the series' new extreme (else left out, as they are
// unknown). An interval without records gives no point. The producers are called as a reader would, on a fake wall
// clock.
import { createBackupStats, createHistogramProducer } from 'backupstats';
import { describe, expect, onTestFinished, vi } from 'vitest';
import { exactBucket } from '../support/exact-buckets.js';
import { it } from '../support/fixtures.js';

const T0 = 1_700_000_000_000;
/**
 * Two durations in the exponential bucket that holds the 6 ms boundary, one on each side of it (sums of them are
 * exact in binary): their explicit counts are kept apart from the exponential ones.
 */
const [SPLIT_BELOW, SPLIT_ABOVE] = [5.75, 6 + 1 / 128];

/** A fake wall clock (Date only) set to `unixMillis`, real again when the test ends. */
function wallClockAt(unixMillis: number): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(unixMillis);
  onTestFinished(() => {
    vi.useRealTimers();
  });
}

/** A Unix time in ms as [seconds, nanoseconds]. */
const hr = (unixMillis: number): [number, number] => [Math.floor(unixMillis / 1000), (unixMillis % 1000) * 1e6];

/** Two delta producers, one of each aggregation, on one stats instance (no reader: the test collects). */
function deltaProducers() {
  const exponential = createHistogramProducer({ aggregation: 'exponential', temporality: 'delta' });
  const explicit = createHistogramProducer({ aggregation: 'explicit', temporality: 'delta' });
  const stats = createBackupStats({ histogramProducers: [exponential, explicit], histogramBoundaries: [0.006, 0.015] });
  onTestFinished(() => stats.shutdown());
  /** Collects both at `unixMillis`: each one's points as [operation, start, value]. */
  const collect = async (unixMillis: number) => {
    vi.setSystemTime(unixMillis);
    const points = async (producer: typeof exponential) =>
      (await producer.collect()).resourceMetrics.scopeMetrics
        .flatMap((s) => s.metrics)
        .flatMap((m) => m.dataPoints.map((p) => [p.attributes.operation, p.startTime, p.value]));
    return { exponential: await points(exponential), explicit: await points(explicit) };
  };
  return { stats, collect };
}

/** The positive buckets of an exponential point holding one duration of each of `millis` (ascending, distinct). */
function positive(...millis: number[]): { offset: number; bucketCounts: number[] } {
  const indexes = millis.map(exactBucket);
  const first = indexes[0] as number;
  const counts = Array<number>((indexes.at(-1) as number) - first + 1).fill(0);
  for (const index of indexes) counts[index - first] = (counts[index - first] as number) + 1;
  return { offset: first, bucketCounts: counts };
}

describe("a delta producer's intervals, exactly", () => {
  it('count, sum, zero count and buckets of each interval alone; min and max only when new; no point when idle', async () => {
    expect([exactBucket(SPLIT_BELOW), exactBucket(SPLIT_ABOVE)]).toEqual([exactBucket(6), exactBucket(6)]);
    wallClockAt(T0);
    const { stats, collect } = deltaProducers();
    const op = stats.backup.scope({ operation: 'w' });
    // Interval 1: the series' first extremes.
    op.timedIncrement(5);
    op.timedIncrement(SPLIT_ABOVE);
    op.timedIncrement(10);
    const first = await collect(T0 + 10_000);
    expect(first.exponential).toEqual([
      [
        'w',
        hr(T0),
        {
          count: 3,
          sum: (5 + SPLIT_ABOVE + 10) / 1000,
          scale: 3,
          zeroCount: 0,
          positive: positive(5, SPLIT_ABOVE, 10),
          negative: { offset: 0, bucketCounts: [] },
          min: 0.005,
          max: 0.01,
        },
      ],
    ]);
    expect(first.explicit).toEqual([
      [
        'w',
        hr(T0),
        {
          buckets: { boundaries: [0.006, 0.015], counts: [1, 2, 0] },
          sum: (5 + SPLIT_ABOVE + 10) / 1000,
          count: 3,
          min: 0.005,
          max: 0.01,
        },
      ],
    ]);

    // Interval 2: a new minimum (0), no new maximum: max left out. A series begun since starts at its own start.
    op.timedIncrement(7);
    op.timedIncrement(0);
    op.timedIncrement(SPLIT_BELOW);
    vi.setSystemTime(T0 + 12_000);
    stats.backup.scope({ operation: 'v' }).timedIncrement(3);
    const second = await collect(T0 + 20_000);
    expect(second.exponential).toEqual([
      [
        'w',
        hr(T0 + 10_000),
        {
          count: 3,
          sum: (7 + SPLIT_BELOW) / 1000,
          scale: 3,
          zeroCount: 1,
          positive: positive(SPLIT_BELOW, 7),
          negative: { offset: 0, bucketCounts: [] },
          min: 0,
        },
      ],
      [
        'v',
        hr(T0 + 12_000),
        {
          count: 1,
          sum: 0.003,
          scale: 3,
          zeroCount: 0,
          positive: positive(3),
          negative: { offset: 0, bucketCounts: [] },
          min: 0.003,
          max: 0.003,
        },
      ],
    ]);
    expect(second.explicit).toEqual([
      [
        'w',
        hr(T0 + 10_000),
        { buckets: { boundaries: [0.006, 0.015], counts: [2, 1, 0] }, sum: (7 + SPLIT_BELOW) / 1000, count: 3, min: 0 },
      ],
      [
        'v',
        hr(T0 + 12_000),
        { buckets: { boundaries: [0.006, 0.015], counts: [1, 0, 0] }, sum: 0.003, count: 1, min: 0.003, max: 0.003 },
      ],
    ]);

    // Interval 3: the minimum again (0) and a duration inside the range: neither extreme is new.
    op.timedIncrement(0);
    op.timedIncrement(8);
    const third = await collect(T0 + 30_000);
    expect(third.exponential).toEqual([
      [
        'w',
        hr(T0 + 20_000),
        {
          count: 2,
          sum: 0.008,
          scale: 3,
          zeroCount: 1,
          positive: positive(8),
          negative: { offset: 0, bucketCounts: [] },
        },
      ],
    ]);
    expect(third.explicit).toEqual([
      ['w', hr(T0 + 20_000), { buckets: { boundaries: [0.006, 0.015], counts: [1, 1, 0] }, sum: 0.008, count: 2 }],
    ]);

    // Interval 4: the maximum again (10), then a new one (20): max given, min left out.
    op.timedIncrement(10);
    op.timedIncrement(20);
    const fourth = await collect(T0 + 40_000);
    expect(fourth.exponential).toEqual([
      [
        'w',
        hr(T0 + 30_000),
        {
          count: 2,
          sum: 0.03,
          scale: 3,
          zeroCount: 0,
          positive: positive(10, 20),
          negative: { offset: 0, bucketCounts: [] },
          max: 0.02,
        },
      ],
    ]);
    expect(fourth.explicit).toEqual([
      [
        'w',
        hr(T0 + 30_000),
        { buckets: { boundaries: [0.006, 0.015], counts: [0, 1, 1] }, sum: 0.03, count: 2, max: 0.02 },
      ],
    ]);

    // Interval 5: nothing recorded, no point; the next interval starts at this collection all the same.
    expect(await collect(T0 + 50_000)).toEqual({ exponential: [], explicit: [] });
    op.timedIncrement(10);
    expect((await collect(T0 + 60_000)).explicit).toEqual([
      ['w', hr(T0 + 50_000), { buckets: { boundaries: [0.006, 0.015], counts: [0, 1, 0] }, sum: 0.01, count: 1 }],
    ]);
  });
});
