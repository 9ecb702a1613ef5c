import { BUCKETS, lowerBoundary, MIN_INDEX } from './bucket-layout.js';

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
  /** For each exponential bucket (from MIN_INDEX): how many boundaries lie at or below its lower boundary. */
  private readonly below: Uint8Array | Uint16Array;

  constructor(readonly boundaries: readonly number[]) {
    this.below = boundaries.length < 256 ? new Uint8Array(BUCKETS) : new Uint16Array(BUCKETS);
    let j = 0;
    // The lowest bucket also holds every duration under 1 µs: it starts from no boundary below.
    for (let i = 1; i < BUCKETS; i++) {
      const lower = lowerBoundary(MIN_INDEX + i);
      while (j < boundaries.length && (boundaries[j] as number) <= lower) j++;
      this.below[i] = j;
    }
  }

  /** The explicit bucket of `seconds`, whose exponential bucket (offset from MIN_INDEX) is `at`. */
  indexOf(seconds: number, at: number): number {
    const boundaries = this.boundaries;
    let j = this.below[at] as number;
    while (j < boundaries.length && seconds > (boundaries[j] as number)) j++;
    return j;
  }
}
