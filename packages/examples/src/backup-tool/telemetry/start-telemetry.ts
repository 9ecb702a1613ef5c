import { MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { createHistogramProducer } from 'backupstats';
import { type StartedBackupStats, startBackupStats } from 'backupstats/setup';

/**
 * A reader that exports nowhere: the tool collects it once at the end to print what the OpenTelemetry pipeline
 * holds, so the summary shows the exported numbers, not the tool's own.
 */
class SummaryReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** The stats the tool records on, and a way to read back what they exported. */
export interface Telemetry {
  readonly stats: StartedBackupStats;
  /** Where Prometheus can scrape, when the Prometheus exporter is on. */
  readonly prometheusUrl: string | undefined;
  /** Collects the provider's current metrics (undefined when metrics are disabled or already shut down). */
  collect(): Promise<ResourceMetrics | undefined>;
}

/**
 * Starts backupstats through its set-up entry point, so every `OTEL_*` and `BACKUPSTATS_*` variable applies,
 * with one extra reader for the summary. Unlike the OpenTelemetry default (otlp), the tool exports nowhere
 * unless `OTEL_METRICS_EXPORTER` says, or `serve` asks for the Prometheus endpoint: a demo run should not
 * push to a collector that is not there.
 */
export async function startTelemetry(env: NodeJS.ProcessEnv, serve: boolean): Promise<Telemetry> {
  const exporters = env.OTEL_METRICS_EXPORTER?.trim() ? env.OTEL_METRICS_EXPORTER : serve ? 'prometheus' : 'none';
  // The stats keep latency histograms only for readers with a histogram producer: the summary's p50 and p99, and
  // the report's, come from them (backupstats/report's estimator, so that both say the same).
  const histograms = createHistogramProducer();
  const reader = new SummaryReader({ metricProducers: [histograms] });
  const stats = await startBackupStats({
    env: { ...env, OTEL_METRICS_EXPORTER: exporters },
    readers: [reader],
    histogramProducers: [histograms],
  });
  const prometheus = exporters
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .includes('prometheus');
  const host = env.OTEL_EXPORTER_PROMETHEUS_HOST?.trim() || 'localhost';
  const port = env.OTEL_EXPORTER_PROMETHEUS_PORT?.trim() || '9464';
  return {
    stats,
    prometheusUrl: prometheus && stats.meterProvider !== undefined ? `http://${host}:${port}/metrics` : undefined,
    async collect() {
      if (stats.meterProvider === undefined) return undefined;
      stats.flush();
      // A signal may have shut everything down while the run went on: its summary then has nothing to show.
      const collected = await reader.collect().catch(() => undefined);
      return collected?.resourceMetrics;
    },
  };
}
