// @ts-nocheck
// The exponential buckets at their edges, against the exact definition (test/support/exact-buckets.ts): a duration
// on a boundary 2^(i/8) s belongs to the bucket below it and the next double up to the bucket above, at every
// boundary of the range kept; durations under 1 µs or over 1 h land in the edge buckets.

import type { ExponentialHistogram } from '@opentelemetry/sdk-metrics';
import { describe, expect } from 'vitest';
import { nextDouble, topBelow } from '../support/exact-buckets.js';
import { it } from '../support/fixtures.js';
import { statsWithHistograms } from '../support/histogram-stats.js';

/** The first and the last bucket kept: 1 µs, (2^-20, 2^(-159/8)] s, and 1 h, (2^(94/8), 2^(95/8)] s. */
const FIRST = -160;
const LAST = 94;

/** Records each duration in a series of its own and returns, for each, the bucket its exponential point holds. */
async function bucketsOf(durations: readonly number[]): Promise<number[]> {
  const { stats, collect } = statsWithHistograms({ maxScopes: durations.length + 2 }, 'exponential');
  durations.forEach((ms, i) => {
    stats.backup.scope({ operation: String(i) }).timedIncrement(ms);
  });
  const exported = await collect();
  return durations.map((ms, i) => {
    const point = exported.histogram({ operation: String(i) }) as unknown as ExponentialHistogram;
    expect({ ms, scale: point.scale, counts: point.positive.bucketCounts }).toEqual({ ms, scale: 3, counts: [1] });
    return point.positive.offset;
  });
}

describe('exponential buckets at their boundaries', () => {
  it('a duration on 2^(i/8) s is in bucket i - 1, the next double above it in bucket i: every boundary from 1 µs to 1 h', async () => {
    const durations: number[] = [];
    const expected: number[] = [];
    for (let i = FIRST + 1; i <= LAST; i++) {
      const top = topBelow(i);
      durations.push(nextDouble(top, -1), top, nextDouble(top, 1));
      expected.push(i - 1, i - 1, i);
    }
    expect(await bucketsOf(durations)).toEqual(expected);
  });

  it('1 s, 2 s, 0.5 s: the boundaries a double holds exactly belong to the bucket below them', async () => {
    // 2^(i/8) s for i a multiple of 8 is a double of milliseconds exactly: 1000 × 2^n.
    const durations = [1000, 2000, 500, 4000, 250, 1000 * 2 ** -10, 1000 * 2 ** 11];
    expect(await bucketsOf(durations)).toEqual([-1, 7, -9, 15, -17, -81, 87]);
    expect(await bucketsOf(durations.map((ms) => nextDouble(ms, 1)))).toEqual([0, 8, -8, 16, -16, -80, 88]);
  });

  it('durations under 1 µs are in the first bucket, and durations of 1 h or more in the last', async () => {
    const underMicrosecond = [
      0.001, // 2^-20 s is under 1 µs by 5 %: 1 µs itself is in the first bucket
      1000 * 2 ** -20, // the first bucket's lower boundary: the bucket below it
      nextDouble(topBelow(FIRST), -1),
      0.0005,
      1e-9,
      Number.MIN_VALUE, // the smallest double above 0 (subnormal)
    ];
    const overHour = [
      3_600_000,
      nextDouble(topBelow(LAST + 1), 1), // just past the last bucket
      4_000_000, // the bucket right after the last
      1000 * 2 ** 12, // 4096 s, the top of the bucket after the last
      1e9,
      1e15, // 31,700 years: as long as the pending sum takes (2^53 ms)
    ];
    expect(await bucketsOf(underMicrosecond)).toEqual(underMicrosecond.map(() => FIRST));
    expect(await bucketsOf(overHour)).toEqual(overHour.map(() => LAST));
  });
});
