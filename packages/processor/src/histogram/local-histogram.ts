import { BUCKETS, BucketIndex } from './bucket-layout.js';
import type { ExplicitBuckets } from './explicit-buckets.js';

/**
 * The latency distribution of one series, kept in process and handed to the SDK whole when a reader collects
 * (cumulative since the series was first recorded). Recording adds a weight to one exponential bucket and updates
 * count, sum, min and max: no allocation, no Map lookup, no Math.log; the explicit buckets are summed from the
 * exponential ones at collection ({@link ExplicitBuckets}), so only a duration in one of the few exponential buckets
 * that hold a boundary writes an explicit count too. Its memory is fixed when the series is created: 255 + (explicit
 * boundaries + 1) doubles, about 2.3 KB with the default boundaries. Records and collections run on the same
 * thread, so a collection always sees count, sum and buckets of the same records.
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
  /**
   * Weights by explicit bucket of the durations in split exponential buckets only; {@link explicitCounts} adds the
   * rest.
   */
  readonly explicit: Float64Array;
  /**
   * The start of the cumulative points (Unix ms): when the series was created, until its first numbers go to
   * the counters at its first record (FamilyRegistry.open), which makes it the counters' start too.
   */
  startedAt = Date.now();
  /** Which exponential buckets are split, held here so the record path reads no other object on most records. */
  private readonly split: Uint8Array;

  constructor(readonly explicitBuckets: ExplicitBuckets) {
    super();
    this.explicit = new Float64Array(explicitBuckets.boundaries.length + 1);
    this.split = explicitBuckets.split;
  }

  /** Adds `weight` durations of `millis` (a valid amount, weight > 0). */
  record(millis: number, weight: number): void {
    this.count += weight;
    this.sumMillis += millis * weight;
    // Stryker disable next-line EqualityOperator: an equal duration stores the value already there
    if (millis < this.minMillis) this.minMillis = millis;
    // Stryker disable next-line EqualityOperator: an equal duration stores the value already there
    if (millis > this.maxMillis) this.maxMillis = millis;
    if (millis === 0) {
      this.zeroCount += weight;
      return;
    }
    const at = this.offsetOf(millis);
    this.exponential[at] = (this.exponential[at] as number) + weight;
    if (this.split[at] !== 0) {
      const j = this.explicitBuckets.indexOf(millis, at);
      this.explicit[j] = (this.explicit[j] as number) + weight;
    }
  }

  /** The weights by explicit bucket, every `le` count exact. */
  explicitCounts(): Float64Array {
    return this.explicitBuckets.countsOf(this.exponential, this.explicit, this.zeroCount);
  }
}
