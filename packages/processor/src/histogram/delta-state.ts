import type { HistogramNumbers } from './histogram-points.js';
import type { LocalHistogram } from './local-histogram.js';

/** A series' cumulative numbers as a delta producer last handed them over. */
interface Taken {
  count: number;
  sumMillis: number;
  minMillis: number;
  maxMillis: number;
  zeroCount: number;
  readonly exponential: Float64Array;
  readonly explicit: Float64Array;
}

/** What one series gained over one interval, with where the interval starts (Unix ms). */
export interface Interval extends HistogramNumbers {
  readonly startMillis: number;
}

/**
 * The memory of one delta producer, which feeds one reader: every series' cumulative numbers at the previous
 * collection, so that a collection hands over the difference. Deltas are differences of the same cumulative
 * numbers, so those of a series always sum to its cumulative truth, whatever raced the collections. Costs one
 * copy of every series' buckets, on the collection path only.
 */
export class DeltaState {
  private readonly taken = new WeakMap<LocalHistogram, Taken>();
  /** When the previous collection took its numbers (Unix ms), undefined before the first. */
  private previousMillis: number | undefined;

  /**
   * What `histogram` gained since the previous collection, and takes it; undefined when nothing was recorded
   * since (no point, as the SDK's delta histograms give none). The interval starts at the previous collection,
   * or at the series' start when it began after it. Min and max are the interval's when it holds the series'
   * new extreme, else unknown (left out).
   */
  take(histogram: LocalHistogram): Interval | undefined {
    let before = this.taken.get(histogram);
    if (before === undefined) {
      before = {
        count: 0,
        sumMillis: 0,
        minMillis: Number.POSITIVE_INFINITY,
        maxMillis: Number.NEGATIVE_INFINITY,
        zeroCount: 0,
        exponential: new Float64Array(histogram.exponential.length),
        explicit: new Float64Array(histogram.explicit.length),
      };
      this.taken.set(histogram, before);
    }
    const count = histogram.count - before.count;
    if (count <= 0) return undefined;
    const interval: Interval = {
      startMillis: Math.max(this.previousMillis ?? histogram.startedAt, histogram.startedAt),
      count,
      sumMillis: histogram.sumMillis - before.sumMillis,
      minMillis: histogram.minMillis < before.minMillis ? histogram.minMillis : Number.NaN,
      maxMillis: histogram.maxMillis > before.maxMillis ? histogram.maxMillis : Number.NaN,
      zeroCount: histogram.zeroCount - before.zeroCount,
      exponential: difference(histogram.exponential, before.exponential),
      explicit: difference(histogram.explicit, before.explicit),
      explicitBuckets: histogram.explicitBuckets,
    };
    before.count = histogram.count;
    before.sumMillis = histogram.sumMillis;
    before.minMillis = histogram.minMillis;
    before.maxMillis = histogram.maxMillis;
    before.zeroCount = histogram.zeroCount;
    before.exponential.set(histogram.exponential);
    before.explicit.set(histogram.explicit);
    return interval;
  }

  /** Marks the end of a collection: the next intervals start here. */
  collected(atMillis: number): void {
    this.previousMillis = atMillis;
  }
}

/** `now - before`, bucket by bucket. */
function difference(now: Float64Array, before: Float64Array): Float64Array {
  const gained = new Float64Array(now.length);
  // Stryker disable next-line EqualityOperator: the extra index is past the typed array's end: the write is ignored
  for (let i = 0; i < now.length; i++) gained[i] = (now[i] as number) - (before[i] as number);
  return gained;
}
