// @ts-nocheck
// Latency histograms as an OTLP receiver got them, read from the decoded requests (the receiver flattens only
// sums and gauges): the latest explicit or exponential point of one metric and operation.
import type { OtlpReceiver } from './otlp-receiver.js';

interface DecodedPoint {
  attributes: { key: string; value: { stringValue?: string } }[];
  count: string | number;
  sum?: number;
  timeUnixNano: string | number;
  explicitBounds?: number[];
  bucketCounts?: (string | number)[];
  scale?: number;
  zeroCount?: string | number;
  positive?: { offset?: number; bucketCounts?: (string | number)[] };
}
interface DecodedMetric {
  name: string;
  histogram?: { dataPoints: DecodedPoint[] };
  exponentialHistogram?: { dataPoints: DecodedPoint[] };
}
interface DecodedRequest {
  resourceMetrics: { scopeMetrics: { metrics: DecodedMetric[] }[] }[];
}

/** One histogram point made plain: counts as numbers. */
export interface ReceivedHistogram {
  readonly kind: 'explicit' | 'exponential';
  readonly count: number;
  readonly sum: number | undefined;
  readonly bounds: number[];
  readonly bucketCounts: number[];
  readonly scale: number | undefined;
  readonly zeroCount: number;
  readonly offset: number;
}

/** The latest point of the histogram `metric` for `operation`, or undefined if none arrived. */
export function latestHistogram(
  receiver: OtlpReceiver,
  metric: string,
  operation: string,
): ReceivedHistogram | undefined {
  let found: { time: bigint; point: ReceivedHistogram } | undefined;
  for (const { request } of receiver.exports) {
    for (const rm of (request as DecodedRequest).resourceMetrics) {
      for (const m of rm.scopeMetrics.flatMap((sm) => sm.metrics)) {
        if (m.name !== metric) continue;
        const kind = m.histogram !== undefined ? 'explicit' : 'exponential';
        for (const dp of (m.histogram ?? m.exponentialHistogram)?.dataPoints ?? []) {
          if (!dp.attributes.some((a) => a.key === 'operation' && a.value.stringValue === operation)) continue;
          const time = BigInt(String(dp.timeUnixNano));
          if (found !== undefined && time < found.time) continue;
          found = {
            time,
            point: {
              kind,
              count: Number(dp.count),
              sum: dp.sum,
              bounds: dp.explicitBounds ?? [],
              bucketCounts: (dp.bucketCounts ?? dp.positive?.bucketCounts ?? []).map(Number),
              scale: dp.scale,
              zeroCount: Number(dp.zeroCount ?? 0),
              offset: dp.positive?.offset ?? 0,
            },
          };
        }
      }
    }
  }
  return found?.point;
}
