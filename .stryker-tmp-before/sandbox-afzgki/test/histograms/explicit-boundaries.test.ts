// @ts-nocheck
// The explicit buckets at their boundaries: a duration of `millis` is in the `le` bucket of the first boundary b
// with millis / 1000 ≤ b, exactly as that division rounds, whichever way b × 1000 rounds and wherever b lies among
// the exponential buckets (on one of their boundaries, several in one bucket, outside 1 µs … 1 h).

import { DEFAULT_HISTOGRAM_BOUNDARIES } from 'backupstats';
import { describe, expect } from 'vitest';
import { nextDouble } from '../support/exact-buckets.js';
import { it } from '../support/fixtures.js';
import { statsWithHistograms } from '../support/histogram-stats.js';

/** Records each duration in a series of its own and returns, for each, the explicit bucket its point counts it in. */
async function bucketsOf(boundaries: readonly number[], durations: readonly number[]): Promise<number[]> {
  const { stats, collect } = statsWithHistograms({
    maxScopes: durations.length + 2,
    histogramBoundaries: [...boundaries],
  });
  durations.forEach((ms, i) => {
    stats.backup.scope({ operation: String(i) }).timedIncrement(ms);
  });
  const exported = await collect();
  return durations.map((ms, i) => {
    const { buckets, count } = exported.histogram({ operation: String(i) }) ?? { buckets: undefined, count: 0 };
    expect({ ms, count, boundaries: buckets?.boundaries }).toEqual({ ms, count: 1, boundaries });
    expect({ ms, total: buckets?.counts.reduce((a, b) => a + b, 0) }).toEqual({ ms, total: 1 });
    return buckets?.counts.indexOf(1) ?? -1;
  });
}

/** The bucket the definition gives: how many boundaries lie below millis / 1000 (a boundary is its own `le`). */
const leOf = (boundaries: readonly number[], millis: number): number =>
  boundaries.filter((b) => millis / 1000 > b).length;

/** The doubles of milliseconds from three below b × 1000 to three above, for every boundary b. */
function around(boundaries: readonly number[]): number[] {
  return boundaries.flatMap((b) => {
    const ms = b * 1000;
    const below = [1, 2, 3].map((n) => Array.from({ length: n }).reduce<number>((x) => nextDouble(x, -1), ms));
    const above = [1, 2, 3].map((n) => Array.from({ length: n }).reduce<number>((x) => nextDouble(x, 1), ms));
    return [...below.reverse(), ms, ...above];
  });
}

/** Durations between the boundaries (their geometric middles), under the first and over the last, and 0. */
function between(boundaries: readonly number[]): number[] {
  const ms = boundaries.map((b) => b * 1000);
  const middles = ms.slice(1).map((b, i) => Math.sqrt(b * (ms[i] as number)));
  return [0, (ms[0] as number) / 3, ...middles, (ms[ms.length - 1] as number) * 3];
}

describe('explicit buckets at their boundaries', () => {
  it('the default boundaries: durations on each, a few doubles either side, between them, 0', async () => {
    const boundaries = DEFAULT_HISTOGRAM_BOUNDARIES;
    const durations = [...around(boundaries), ...between(boundaries)];
    expect(await bucketsOf(boundaries, durations)).toEqual(durations.map((ms) => leOf(boundaries, ms)));
  });

  it('boundaries whose milliseconds round past them, several in one exponential bucket, on exponential boundaries', async () => {
    // 0.0021 × 1000 ms is above 0.0021 s once divided back, and the double after 0.063 × 1000 ms is not above 0.063 s;
    // 1.01 … 1.04 s share the exponential bucket (1, 1.09] s; 0.5, 1 and 2 s are exponential boundaries; 1e-7 s is
    // under 1 µs, 5000 s over 1 h.
    const boundaries = [1e-7, 0.0021, 0.063, 0.5, 1, 1.01, 1.02, 1.03, 1.04, 2, 5000];
    expect((0.0021 * 1000) / 1000).toBeGreaterThan(0.0021);
    expect(nextDouble(0.063 * 1000, 1) / 1000).toBe(0.063);
    const durations = [...around(boundaries), ...between(boundaries)];
    expect(await bucketsOf(boundaries, durations)).toEqual(durations.map((ms) => leOf(boundaries, ms)));
  });

  it('64 boundaries, the most accepted, 60 of them in two exponential buckets', async () => {
    const boundaries = [
      ...Array.from({ length: 60 }, (_, i) => Number((1 + (i + 1) / 400).toFixed(4))),
      10,
      100,
      1000,
      3000,
    ];
    const durations = [...around(boundaries), ...between(boundaries)];
    expect(await bucketsOf(boundaries, durations)).toEqual(durations.map((ms) => leOf(boundaries, ms)));
  });
});
