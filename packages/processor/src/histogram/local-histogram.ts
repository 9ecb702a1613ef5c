import { BUCKETS, bucketIndex, MIN_INDEX } from './bucket-layout.js';
import type { ExplicitBuckets } from './explicit-buckets.js';

/**
 * The latency distribution of one series, kept in process and handed to the SDK whole when a reader collects
 * (cumulative since the series was first recorded). Recording adds a weight to one exponential bucket and one
 * explicit bucket and updates count, sum, min and max: no allocation, no Map lookup, no Math.log. Its memory is
 * fixed when the series is created: 255 + (explicit boundaries + 1) doubles, about 2.3 KB with the default
 * boundaries. Records and collections run on the same thread, so a collection always sees count, sum and buckets
 * of the same records.
 */
export class LocalHistogram {
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
  /** When the first duration was recorded (Unix ms), the start of the cumulative points. */
  readonly startedAt = Date.now();

  constructor(readonly explicitBuckets: ExplicitBuckets) {
    this.explicit = new Float64Array(explicitBuckets.boundaries.length + 1);
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
    const seconds = millis / 1000;
    const at = bucketIndex(seconds) - MIN_INDEX;
    this.exponential[at] = (this.exponential[at] as number) + weight;
    const j = this.explicitBuckets.indexOf(seconds, at);
    this.explicit[j] = (this.explicit[j] as number) + weight;
  }
}

/** What a series records durations into: its {@link LocalHistogram}, or nothing when histograms are off. */
export interface SeriesHistogram {
  record(millis: number, weight: number): void;
}

/** Histograms off: one object for every series, which records nothing (no branch on the record path). */
export const NO_HISTOGRAM: SeriesHistogram = Object.freeze({ record() {} });
