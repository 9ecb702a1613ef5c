// @ts-nocheck
// Reading run series from what the OTLP receiver got. A run series is told apart by more than its scope
// (outcome, error.type or reason), which seriesKey leaves out: these match every attribute. An SDK export's run
// series are read with harness.ts (numbers, histograms, keyed by runKey of series-key.ts).
import type { AttributeValue, OtlpReceiver } from './otlp-receiver.js';

function sameAttributes(a: Readonly<Record<string, AttributeValue>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/** The latest value of the sum or gauge series `metric` with exactly these attributes, as the receiver got it. */
export function latest(
  receiver: OtlpReceiver,
  metric: string,
  attributes: Readonly<Record<string, string>>,
): number | undefined {
  let found: { time: bigint; value: number } | undefined;
  for (const point of receiver.exports.flatMap((e) => e.points)) {
    if (point.metric !== metric || !sameAttributes(point.attributes, attributes)) continue;
    if (found === undefined || point.time >= found.time) found = point;
  }
  return found?.value;
}

/** A histogram metric of a decoded ExportMetricsServiceRequest (the receiver flattens only sums and gauges). */
interface DecodedMetric {
  name: string;
  histogram?: {
    dataPoints: {
      count: string;
      explicitBounds?: number[];
      attributes: { key: string; value: { stringValue?: string } }[];
    }[];
  };
}
interface DecodedRequest {
  resourceMetrics: { scopeMetrics: { metrics: DecodedMetric[] }[] }[];
}

/** The latest count and bucket boundaries of the histogram series with this outcome, as the receiver got it. */
export function histogramPoint(
  receiver: OtlpReceiver,
  metric: string,
  outcome: string,
): { count: number; bounds: number[] } | undefined {
  let found: { count: number; bounds: number[] } | undefined;
  for (const { request } of receiver.exports) {
    const metrics = (request as DecodedRequest).resourceMetrics.flatMap((rm) =>
      rm.scopeMetrics.flatMap((sm) => sm.metrics),
    );
    for (const point of metrics.find((m) => m.name === metric)?.histogram?.dataPoints ?? []) {
      if (point.attributes.some((a) => a.key === 'outcome' && a.value.stringValue === outcome)) {
        found = { count: Number(point.count), bounds: point.explicitBounds ?? [] };
      }
    }
  }
  return found;
}
