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
 * Explicit buckets (Prometheus' `le`) counted exactly from the exponential ones: bucket j holds the durations d
 * with boundaries[j - 1] < d ≤ boundaries[j], the last one everything above. The bucket index grows with the
 * duration, so all the durations of an exponential bucket that holds no boundary lie in one explicit bucket, the one
 * above the boundaries of the exponential buckets below it: those are summed when a reader collects, and recording
 * them writes nothing more. Only the exponential buckets that hold a boundary (about one in eleven with the default
 * boundaries) split their durations between explicit buckets, and only a duration in one of them is compared with
 * the boundary at record time and counted apart ({@link indexOf}).
 */
export class ExplicitBuckets {
  /** For each exponential bucket (from MIN_INDEX): how many boundaries lie below all of its durations. */
  readonly below = new Uint8Array(BUCKETS);
  /**
   * For each exponential bucket: 1 when a boundary lies in it, so that its durations are counted apart by explicit
   * bucket at record time; 0 when they all lie in explicit bucket `below[offset]`, which {@link countsOf} sums.
   */
  readonly split = new Uint8Array(BUCKETS);
  /**
   * The boundaries in milliseconds, as the record path compares them: `millis > limits[j]` exactly when
   * `millis / 1000 > boundaries[j]`, so that a duration on a boundary is in its `le` whatever the rounding.
   */
  readonly limits: Float64Array;

  constructor(readonly boundaries: readonly number[]) {
    this.limits = Float64Array.from(boundaries, millisLimit);
    // Every duration of a bucket above the one of a boundary's limit is above the limit, every duration of a bucket
    // below it at or below the limit; the durations of the limit's own bucket are compared one by one.
    const index = new BucketIndex();
    for (const [j, limit] of this.limits.entries()) {
      const offset = index.offsetOf(limit);
      this.below.fill(j + 1, offset + 1);
      this.split[offset] = 1;
    }
  }

  /**
   * The explicit bucket of a duration of `millis` (> 0) whose exponential bucket is at `offset` and is split: the
   * boundaries in the buckets below it are all below the duration, the few inside it are compared.
   */
  indexOf(millis: number, offset: number): number {
    const limits = this.limits;
    let j = this.below[offset] as number;
    // `j <= limits.length` or `true` survive mutation testing as equivalent (`millis > undefined` is false, so the
    // loop stops at the same j); not disabled, which would also hide the mutants of `millis >` that tests kill.
    while (j < limits.length && millis > (limits[j] as number)) j++;
    return j;
  }

  /**
   * The weights by explicit bucket of a histogram: `apart`, what its split exponential buckets counted by explicit
   * bucket, plus every other exponential bucket whole, plus the durations of 0 (below every boundary).
   */
  countsOf(exponential: Float64Array, apart: Float64Array, zeroCount: number): Float64Array {
    const counts = Float64Array.from(apart);
    counts[0] = (counts[0] as number) + zeroCount;
    const below = this.below;
    const split = this.split;
    // Stryker disable next-line EqualityOperator: split[BUCKETS] is undefined, not 0: nothing is added
    for (let offset = 0; offset < BUCKETS; offset++) {
      const weight = exponential[offset] as number;
      // `weight !== 0` → `true` is an equivalent mutant (a weight of 0 adds 0); not disabled, so that the mutants
      // of the `split` check stay tested.
      if (weight !== 0 && split[offset] === 0) {
        const j = below[offset] as number;
        counts[j] = (counts[j] as number) + weight;
      }
    }
    return counts;
  }
}

/** The largest double of milliseconds that is not above `seconds` once divided by 1000. */
function millisLimit(seconds: number): number {
  let limit = seconds * 1000;
  // Stryker disable next-line EqualityOperator: both stop at or below the limit; the next loop steps up to it
  while (limit / 1000 > seconds) limit = nextDouble(limit, -1);
  while (nextDouble(limit, 1) / 1000 <= seconds) limit = nextDouble(limit, 1);
  return limit;
}
