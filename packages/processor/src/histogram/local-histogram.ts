import { BUCKETS, BucketIndex } from './bucket-layout.js';
import type { ExplicitBuckets } from './explicit-buckets.js';

/**
 * The latency distribution of one series, kept in process and handed to the SDK whole when a reader collects
 * (cumulative since the series was first recorded). Recording adds a weight to one exponential bucket and one
 * explicit bucket and updates count, sum, min and max: no allocation, no Map lookup, no Math.log. Its memory is
 * fixed when the series is created: 255 + (explicit boundaries + 1) doubles, about 2.3 KB with the default
 * boundaries. Records and collections run on the same thread, so a collection always sees count, sum and buckets
 * of the same records.
 */
export class LocalHistogram extends BucketIndex {
  /** Weighted number of recorded durations. */
  count = 0;
  /** Weighted sum of the recorded durations, ms. */
  sumMillis = 0;
  /** Smallest and largest recorded duration, ms. */
  minMillis = Number.POSITIVE_INFINITY;
  maxMillis = Number.NEGATIVE_INFINITY;
  /** Weight of durations of exactly 0 (OpenTelemetry's zero bucket). */
  zeroCount = 0;
  /** Weights by exponential bucket, from MIN_INDEX. */
  readonly exponential = new Float64Array(BUCKETS);
  /** Weights by explicit bucket. */
  readonly explicit: Float64Array;
  /**
   * The start of the cumulative points (Unix ms): when the series was created, until its first numbers go to
   * the counters at its first record (FamilyRegistry.open), which makes it the counters' start too.
   */
  startedAt = Date.now();
  /** The explicit buckets' layout, held here so the record path reads no other object. */
  private readonly below: Uint8Array;
  private readonly limits: Float64Array;

  constructor(readonly explicitBuckets: ExplicitBuckets) {
    super();
    this.explicit = new Float64Array(explicitBuckets.boundaries.length + 1);
    this.below = explicitBuckets.below;
    this.limits = explicitBuckets.limits;
  }

  /** Adds `weight` durations of `millis` (a valid amount, weight > 0). */
  record(millis: number, weight: number): void {
    this.count += weight;
    this.sumMillis += millis * weight;
    if (millis < this.minMillis) this.minMillis = millis;
    if (millis > this.maxMillis) this.maxMillis = millis;
    if (millis === 0) {
      this.zeroCount += weight;
      this.explicit[0] = (this.explicit[0] as number) + weight;
      return;
    }
    const at = this.offsetOf(millis);
    this.exponential[at] = (this.exponential[at] as number) + weight;
    // The explicit bucket: the boundaries in the exponential buckets below this one are all below the duration;
    // at most a boundary or two lie inside the bucket, one comparison each.
    const limits = this.limits;
    let j = this.below[at] as number;
    while (j < limits.length && millis > (limits[j] as number)) j++;
    this.explicit[j] = (this.explicit[j] as number) + weight;
  }
}
