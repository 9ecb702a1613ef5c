import type { PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';

// What the push exporters (the Pushgateway's, the textfile's) and set-up's delivery watch share of the SDK's export
// contract. Types only from sdk-metrics, whose values the library never imports outside set-up.

/** An export's result, as a PushMetricExporter hands it to its callback. */
export type ExportResult = Parameters<Parameters<PushMetricExporter['export']>[1]>[0];

/** Export result codes (`ExportResultCode` in @opentelemetry/core, the same in 2.x and 3.x). */
export const SUCCESS = 0;
export const FAILED = 1;
/** `AggregationTemporality.CUMULATIVE` (sdk-metrics): the same value in 2.x and 3.x. */
export const CUMULATIVE = 1;

/** What turns the metrics into Prometheus's text format: exporter-prometheus's PrometheusSerializer. */
export interface MetricsSerializer {
  serialize(resourceMetrics: ResourceMetrics): string;
}
