import type { Attributes, HrTime } from '@opentelemetry/api';
import { MIN_INDEX, SCALE } from './bucket-layout.js';
import type { LocalHistogram } from './local-histogram.js';
import type { ExplicitHistogramValue, ExponentialHistogramValue, HistogramDataPoint } from './metric-data.js';

/** A Unix time in ms as OpenTelemetry's HrTime: [seconds, nanoseconds]. */
export function hrTimeOf(unixMillis: number): HrTime {
  const seconds = Math.floor(unixMillis / 1000);
  return [seconds, Math.round((unixMillis - seconds * 1000) * 1e6)];
}

/** Weights as OpenTelemetry counts: whole numbers (sampled timing's weights are). */
const whole = (weight: number): number => Math.round(weight);

/** The explicit-bucket point of one series: every `le` count exact, summed from its exponential buckets. */
export function explicitPoint(
  attributes: Attributes,
  histogram: LocalHistogram,
  endTime: HrTime,
): HistogramDataPoint<ExplicitHistogramValue> {
  return {
    startTime: hrTimeOf(histogram.startedAt),
    endTime,
    attributes,
    value: {
      buckets: {
        boundaries: [...histogram.explicitBuckets.boundaries],
        counts: Array.from(histogram.explicitCounts(), whole),
      },
      sum: histogram.sumMillis / 1000,
      count: whole(histogram.count),
      min: histogram.minMillis / 1000,
      max: histogram.maxMillis / 1000,
    },
  };
}

/** The base-2 exponential point of one series, at the local scale, its buckets trimmed to those with weight. */
export function exponentialPoint(
  attributes: Attributes,
  histogram: LocalHistogram,
  endTime: HrTime,
): HistogramDataPoint<ExponentialHistogramValue> {
  const buckets = histogram.exponential;
  let first = 0;
  while (first < buckets.length && buckets[first] === 0) first++;
  let last = buckets.length - 1;
  while (last >= first && buckets[last] === 0) last--;
  return {
    startTime: hrTimeOf(histogram.startedAt),
    endTime,
    attributes,
    value: {
      count: whole(histogram.count),
      sum: histogram.sumMillis / 1000,
      scale: SCALE,
      zeroCount: whole(histogram.zeroCount),
      positive: {
        offset: first > last ? 0 : MIN_INDEX + first,
        bucketCounts: Array.from(buckets.subarray(first, last + 1), whole),
      },
      negative: { offset: 0, bucketCounts: [] },
      min: histogram.minMillis / 1000,
      max: histogram.maxMillis / 1000,
    },
  };
}
