/** The OpenTelemetry specification's defaults that set-up applies, and the deadlines derived from them. */
// @ts-nocheck


/** `OTEL_METRIC_EXPORT_INTERVAL` when unset. */
export const DEFAULT_EXPORT_INTERVAL_MILLIS = 60_000;
/**
 * `OTEL_METRIC_EXPORT_TIMEOUT` when unset (shorter when the interval is), and the SDK's own default: the deadline
 * assumed for a MeterProvider built elsewhere, whose readers' timeout is unknown here.
 */
export const DEFAULT_EXPORT_TIMEOUT_MILLIS = 30_000;
/** `OTEL_EXPORTER_OTLP_TIMEOUT` when unset. */
export const DEFAULT_OTLP_TIMEOUT_MILLIS = 10_000;
/** Where the Prometheus endpoint listens when `OTEL_EXPORTER_PROMETHEUS_HOST` / `_PORT` are unset. */
export const DEFAULT_PROMETHEUS_HOST = 'localhost';
export const DEFAULT_PROMETHEUS_PORT = 9464;
/** Time a shutdown allows beyond its export deadline for the rest (closing servers and clients). */
export const SHUTDOWN_MARGIN_MILLIS = 1000;
/** How long a shutdown at exit may take when its target does not say: the default export deadline and the margin. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MILLIS = DEFAULT_EXPORT_TIMEOUT_MILLIS + SHUTDOWN_MARGIN_MILLIS;
