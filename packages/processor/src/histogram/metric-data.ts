// The slice of @opentelemetry/sdk-metrics' MetricProducer types that the histogram producer hands to a reader,
// written out here because the core depends on @opentelemetry/api only. They match sdk-metrics 1.x, 2.x and 3.x
// structurally (the enums' numeric values are stable: DataPointType.HISTOGRAM 0, EXPONENTIAL_HISTOGRAM 1;
// AggregationTemporality.DELTA 0, CUMULATIVE 1), so a producer of this library is accepted wherever the SDK wants one.
import type { Attributes, HrTime, ValueType } from '@opentelemetry/api';

/** `DataPointType.HISTOGRAM`. */
export const HISTOGRAM = 0;
/** `DataPointType.EXPONENTIAL_HISTOGRAM`. */
export const EXPONENTIAL_HISTOGRAM = 1;
/** `AggregationTemporality.DELTA`. */
export const DELTA = 0;
/** `AggregationTemporality.CUMULATIVE`. */
export const CUMULATIVE = 1;

/** `AggregationTemporality`: what a point's numbers cover, since the series started or since the previous point. */
export type Temporality = typeof DELTA | typeof CUMULATIVE;

/** One data point. */
export interface HistogramDataPoint<T> {
  readonly startTime: HrTime;
  readonly endTime: HrTime;
  readonly attributes: Attributes;
  readonly value: T;
}

/** An explicit-bucket histogram's value: `counts[j]` is the weight in (boundaries[j - 1], boundaries[j]]. */
export interface ExplicitHistogramValue {
  buckets: { boundaries: number[]; counts: number[] };
  sum: number;
  count: number;
  /** Left out of a delta point whose interval's extremes are not known. */
  min?: number;
  max?: number;
}

/** A base-2 exponential histogram's value. */
export interface ExponentialHistogramValue {
  count: number;
  sum: number;
  scale: number;
  zeroCount: number;
  positive: { offset: number; bucketCounts: number[] };
  negative: { offset: number; bucketCounts: number[] };
  min?: number;
  max?: number;
}

interface MetricDescriptor {
  readonly name: string;
  readonly description: string;
  readonly unit: string;
  readonly valueType: ValueType;
}

/** The histograms of one instrument. */
export type HistogramMetricData =
  | {
      readonly descriptor: MetricDescriptor;
      readonly aggregationTemporality: Temporality;
      readonly dataPointType: typeof HISTOGRAM;
      readonly dataPoints: HistogramDataPoint<ExplicitHistogramValue>[];
    }
  | {
      readonly descriptor: MetricDescriptor;
      readonly aggregationTemporality: Temporality;
      readonly dataPointType: typeof EXPONENTIAL_HISTOGRAM;
      readonly dataPoints: HistogramDataPoint<ExponentialHistogramValue>[];
    };

/** What `collect()` resolves with. The reader keeps its provider's resource and ignores this one. */
export interface HistogramCollection {
  resourceMetrics: {
    // biome-ignore lint/suspicious/noExplicitAny: the SDK's Resource class, which the core cannot name; readers ignore it.
    resource: any;
    scopeMetrics: { scope: { name: string; version?: string }; metrics: HistogramMetricData[] }[];
  };
  errors: unknown[];
}
