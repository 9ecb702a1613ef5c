// Points whose interval is empty: the OpenTelemetry data model wants every point to start before it ends.
import type { DataPoint, ResourceMetrics } from '@opentelemetry/sdk-metrics';

const toNanos = ([seconds, nanos]: [number, number]): bigint => BigInt(seconds) * 1_000_000_000n + BigInt(nanos);

/** Every point of the export whose start is not before its end, as `name {attributes} start end`. */
export function pointsNotBeforeEnd(exported: ResourceMetrics): string[] {
  const bad: string[] = [];
  for (const scope of exported.scopeMetrics)
    for (const metric of scope.metrics)
      for (const p of metric.dataPoints as DataPoint<unknown>[]) {
        const start = toNanos(p.startTime);
        const end = toNanos(p.endTime);
        if (start >= end) bad.push(`${metric.descriptor.name} ${JSON.stringify(p.attributes)} ${start} ${end}`);
      }
  return bad;
}
