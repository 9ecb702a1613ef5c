// Reading run series, from an SDK export or from what an OTLP receiver got. A run series is told apart by more
// than its scope (outcome, error.type or reason), which seriesKey leaves out: these key or match every attribute.
import type { DataPoint, Histogram, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { AttributeValue, OtlpReceiver } from './otlp-receiver.js';

/** `name{k=v,…}` with the attributes sorted by key, e.g. `backup.runs{component=C,…,outcome=success}`. */
export function runKey(name: string, attributes: Readonly<Record<string, unknown>>): string {
  const pairs = Object.entries(attributes)
    .map(([key, value]) => `${key}=${String(value)}`)
    .sort();
  return `${name}{${pairs.join(',')}}`;
}

function dataPoints(exported: ResourceMetrics | undefined): { key: string; value: unknown }[] {
  return (exported?.scopeMetrics ?? []).flatMap((scope) =>
    scope.metrics.flatMap((metric) =>
      (metric.dataPoints as DataPoint<unknown>[]).map((point) => ({
        key: runKey(metric.descriptor.name, point.attributes),
        value: point.value,
      })),
    ),
  );
}

/** {@link runKey} → value of every sum and gauge point of an SDK export. */
export function numbers(exported: ResourceMetrics | undefined): Map<string, number> {
  return new Map(
    dataPoints(exported).flatMap(({ key, value }) => (typeof value === 'number' ? [[key, value] as const] : [])),
  );
}

/** {@link runKey} → value of every histogram point of an SDK export. */
export function histograms(exported: ResourceMetrics | undefined): Map<string, Histogram> {
  return new Map(
    dataPoints(exported).flatMap(({ key, value }) =>
      typeof value === 'object' ? [[key, value as Histogram] as const] : [],
    ),
  );
}

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
