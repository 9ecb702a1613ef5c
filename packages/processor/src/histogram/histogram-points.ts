import type { Attributes, HrTime } from '@opentelemetry/api';
import { MIN_INDEX, SCALE } from './bucket-layout.js';
import type { ExplicitBuckets } from './explicit-buckets.js';
import type { ExplicitHistogramValue, ExponentialHistogramValue, HistogramDataPoint } from './metric-data.js';

/** A Unix time in ms as OpenTelemetry's HrTime: [seconds, nanoseconds]. */
export function hrTimeOf(unixMillis: number): HrTime {
  const seconds = Math.floor(unixMillis / 1000);
  return [seconds, Math.round((unixMillis - seconds * 1000) * 1e6)];
}

/**
 * The numbers a point is built from: a series' LocalHistogram (cumulative), or what it gained over one interval
 * (delta-state.ts). Min and max are not finite when unknown, and the point then leaves them out.
 */
export interface HistogramNumbers {
  readonly count: number;
  readonly sumMillis: number;
  readonly minMillis: number;
  readonly maxMillis: number;
  readonly zeroCount: number;
  readonly exponential: Float64Array;
  readonly explicit: Float64Array;
  readonly explicitBuckets: ExplicitBuckets;
}

/** Weights as OpenTelemetry counts: whole numbers (sampled timing's weights are). */
const whole = (weight: number): number => Math.round(weight);

/** Min and max in seconds, each only when known. */
function extremes(numbers: HistogramNumbers): { min?: number; max?: number } {
  const known: { min?: number; max?: number } = {};
  if (Number.isFinite(numbers.minMillis)) known.min = numbers.minMillis / 1000;
  if (Number.isFinite(numbers.maxMillis)) known.max = numbers.maxMillis / 1000;
  return known;
}

/**
 * The explicit-bucket point of one series: every `le` count exact, summed from its exponential buckets and the
 * split buckets' own counts (a sum, so a delta's numbers give the delta's counts).
 */
export function explicitPoint(
  attributes: Attributes,
  numbers: HistogramNumbers,
  startTime: HrTime,
  endTime: HrTime,
): HistogramDataPoint<ExplicitHistogramValue> {
  return {
    startTime,
    endTime,
    attributes,
    value: {
      buckets: {
        boundaries: [...numbers.explicitBuckets.boundaries],
        counts: Array.from(
          numbers.explicitBuckets.countsOf(numbers.exponential, numbers.explicit, numbers.zeroCount),
          whole,
        ),
      },
      sum: numbers.sumMillis / 1000,
      count: whole(numbers.count),
      ...extremes(numbers),
    },
  };
}

/** The base-2 exponential point of one series, at the local scale, its buckets trimmed to those with weight. */
export function exponentialPoint(
  attributes: Attributes,
  numbers: HistogramNumbers,
  startTime: HrTime,
  endTime: HrTime,
): HistogramDataPoint<ExponentialHistogramValue> {
  const buckets = numbers.exponential;
  let first = 0;
  // `first <= buckets.length` or `true` and, below, `last > first` or `true` are equivalent mutants (an index past
  // the end reads undefined, not 0); not disabled, so that the mutants of the `=== 0` checks stay tested.
  while (first < buckets.length && buckets[first] === 0) first++;
  let last = buckets.length - 1;
  while (last >= first && buckets[last] === 0) last--;
  return {
    startTime,
    endTime,
    attributes,
    value: {
      count: whole(numbers.count),
      sum: numbers.sumMillis / 1000,
      scale: SCALE,
      zeroCount: whole(numbers.zeroCount),
      positive: {
        offset: first > last ? 0 : MIN_INDEX + first,
        bucketCounts: Array.from(buckets.subarray(first, last + 1), whole),
      },
      negative: { offset: 0, bucketCounts: [] },
      ...extremes(numbers),
    },
  };
}
