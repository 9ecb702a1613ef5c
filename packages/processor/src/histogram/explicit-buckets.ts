import { BUCKETS, lowerBoundary, MIN_INDEX, nextDouble } from './bucket-layout.js';

/**
 * The default explicit bucket boundaries, in seconds: 10 µs to 100 s, 1-2.5-5 in every decade (adjacent ones at
 * most 2.5× apart), values a person can read in a Prometheus `le` label.
 */
export const DEFAULT_HISTOGRAM_BOUNDARIES: readonly number[] = Object.freeze(
  [-5, -4, -3, -2, -1, 0, 1]
    .flatMap((power) => [1, 2.5, 5].map((step) => Number((step * 10 ** power).toPrecision(3))))
    .concat(100),
);

/**
 * Explicit buckets (Prometheus' `le`) counted exactly beside the exponential ones: bucket j holds the durations d
 * with boundaries[j - 1] < d ≤ boundaries[j], the last one everything above. A duration finds its bucket from its
 * exponential bucket: the boundaries at or below that bucket's lower boundary are all below it, and at most a
 * boundary or two lie inside it (one comparison each).
 */
export class ExplicitBuckets {
  /** For each exponential bucket (from MIN_INDEX): how many boundaries lie surely below its lower boundary. */
  readonly below = new Uint8Array(BUCKETS);
  /**
   * The boundaries in milliseconds, as the record path compares them: `millis > limits[j]` exactly when
   * `millis / 1000 > boundaries[j]`, so that a duration on a boundary is in its `le` whatever the rounding.
   */
  readonly limits: Float64Array;

  constructor(readonly boundaries: readonly number[]) {
    this.limits = Float64Array.from(boundaries, millisLimit);
    let j = 0;
    // The lowest bucket also holds every duration under 1 µs: it starts from no boundary below.
    for (let i = 1; i < BUCKETS; i++) {
      const lower = lowerBoundary(MIN_INDEX + i);
      // A hair under the lower boundary: a boundary on it is left to the record path's exact comparison.
      while (j < boundaries.length && (boundaries[j] as number) < lower * (1 - 1e-12)) j++;
      this.below[i] = j;
    }
  }

  /**
   * The explicit bucket of a duration of `millis` (> 0) whose exponential bucket is at `offset`: the boundaries at
   * or below that bucket's lower boundary are all below it, at most a boundary or two lie inside it. (LocalHistogram
   * runs the same loop on its own copies of `below` and `limits`, read through `this` on its record path.)
   */
  indexOf(millis: number, offset: number): number {
    const limits = this.limits;
    let j = this.below[offset] as number;
    while (j < limits.length && millis > (limits[j] as number)) j++;
    return j;
  }
}

/** The largest double of milliseconds that is not above `seconds` once divided by 1000. */
function millisLimit(seconds: number): number {
  let limit = seconds * 1000;
  while (limit / 1000 > seconds) limit = nextDouble(limit, -1);
  while (nextDouble(limit, 1) / 1000 <= seconds) limit = nextDouble(limit, 1);
  return limit;
}
