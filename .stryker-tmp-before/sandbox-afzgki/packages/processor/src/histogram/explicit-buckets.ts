// @ts-nocheck
import { BUCKETS, BucketIndex, nextDouble } from './bucket-layout.js';

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
 * exponential bucket: the boundaries in the exponential buckets below it are all below the duration, and at most a
 * boundary or two lie inside it (one comparison each).
 */
export class ExplicitBuckets {
  /** For each exponential bucket (from MIN_INDEX): how many boundaries lie below all of its durations. */
  readonly below = new Uint8Array(BUCKETS);
  /**
   * The boundaries in milliseconds, as the record path compares them: `millis > limits[j]` exactly when
   * `millis / 1000 > boundaries[j]`, so that a duration on a boundary is in its `le` whatever the rounding.
   */
  readonly limits: Float64Array;

  constructor(readonly boundaries: readonly number[]) {
    this.limits = Float64Array.from(boundaries, millisLimit);
    // The bucket index grows with the duration: every duration of a bucket above the one of a boundary's limit is
    // above the limit. The boundaries in a duration's own bucket are left to the record path's exact comparison.
    const index = new BucketIndex();
    for (const [j, limit] of this.limits.entries()) this.below.fill(j + 1, index.offsetOf(limit) + 1);
  }

  /**
   * The explicit bucket of a duration of `millis` (> 0) whose exponential bucket is at `offset`: the boundaries in
   * the buckets below it are all below the duration, at most a boundary or two lie inside it. (LocalHistogram
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
