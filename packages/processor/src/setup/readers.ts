import type { MetricReader, PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { type DeliveryWatch, watchDelivery } from './delivery.js';
import { missingPeer, type SdkLine } from './load.js';
import { createPrometheusEndpoint, type PrometheusEndpoint } from './prometheus-endpoint.js';
import type { OtlpSettings } from './otlp-settings.js';
import type { ExportSettings, PrometheusSettings } from './settings.js';

type SdkMetrics = typeof import('@opentelemetry/sdk-metrics');

/** The readers of the MeterProvider that set-up builds, and how to start and stop the ones that listen. */
export interface Readers {
  readonly readers: MetricReader[];
  /** One per push exporter, to say at shutdown what did not reach its backend. */
  readonly deliveries: readonly DeliveryWatch[];
  /**
   * Resolves once every endpoint listens (the Prometheus one), or rejects with a clear error such as
   * EADDRINUSE. Called after the MeterProvider exists, so that a failure can shut everything down.
   */
  listen(): Promise<void>;
  /** Closes the endpoints, giving scrapes being answered at most `graceMillis`. */
  close(graceMillis: number): Promise<void>;
}

/**
 * Loads the exporter packages the settings ask for (all of them first, so that a missing package fails before
 * anything starts), then builds one reader per exporter. Every exporter gets its endpoint, headers, temporality
 * and timeout explicitly, so that the exporter packages' own reading of `process.env` cannot contradict the
 * settings (which may come from a caller's `env`).
 */
export async function buildReaders(settings: ExportSettings, sdk: SdkMetrics, line: SdkLine): Promise<Readers> {
  const factories: Array<() => MetricReader> = [];
  const deliveries: DeliveryWatch[] = [];
  let prometheus: { endpoint: PrometheusEndpoint; settings: PrometheusSettings } | undefined;

  const periodic = (exporter: PushMetricExporter, label: string): MetricReader => {
    const watch = watchDelivery(exporter, label);
    deliveries.push(watch);
    return new sdk.PeriodicExportingMetricReader({
      exporter: watch.exporter,
      exportIntervalMillis: settings.intervalMillis,
      exportTimeoutMillis: settings.timeoutMillis,
    });
  };

  for (const name of settings.exporters) {
    if (name === 'console') {
      factories.push(() => periodic(new sdk.ConsoleMetricExporter(), 'console exporter'));
    } else if (name === 'otlp' && settings.otlp !== undefined) {
      const otlp = settings.otlp;
      const create = await loadOtlp(otlp, settings.exportersSource, line);
      factories.push(() => periodic(create(), `OTLP exporter (${otlp.protocol}, ${showUrl(otlp.url)})`));
    } else if (name === 'prometheus' && settings.prometheus !== undefined) {
      const name = '@opentelemetry/exporter-prometheus';
      const { PrometheusExporter } = await import('@opentelemetry/exporter-prometheus').catch(missingPeer(name, settings.exportersSource, line));
      const where = settings.prometheus;
      factories.push(() => {
        // The exporter's own server never starts: set-up serves its scrapes (see createPrometheusEndpoint). Host
        // and port are still passed so that exporter 0.2xx does not read OTEL_EXPORTER_PROMETHEUS_* from
        // process.env.
        const exporter = new PrometheusExporter({ host: where.host, port: where.port, preventServerStart: true });
        prometheus = { endpoint: createPrometheusEndpoint(exporter, where.host, where.port), settings: where };
        return exporter;
      });
    }
  }

  return {
    readers: factories.map((create) => create()),
    deliveries,
    async listen() {
      if (prometheus === undefined) return;
      const { endpoint, settings: where } = prometheus;
      try {
        await endpoint.listen();
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(
          `backupstats: the Prometheus exporter could not listen on ${where.host}:${where.port} ` +
            `(OTEL_EXPORTER_PROMETHEUS_HOST / OTEL_EXPORTER_PROMETHEUS_PORT): ${reason}`,
          { cause: error },
        );
      }
    },
    async close(graceMillis) {
      await prometheus?.endpoint.close(graceMillis);
    },
  };
}

/** The URL for a message: without user information or query, which may hold credentials. */
function showUrl(url: string): string {
  const shown = new URL(url);
  shown.username = '';
  shown.password = '';
  shown.search = '';
  return shown.href;
}

type OtlpConfig = {
  url: string;
  headers: Record<string, string>;
  temporalityPreference: number;
  timeoutMillis: number;
};

/** Loads the OTLP exporter package of the protocol and returns a factory of configured exporters. */
async function loadOtlp(otlp: OtlpSettings, exportersSource: string, line: SdkLine): Promise<() => PushMetricExporter> {
  const askedBy = `${exportersSource} with ${otlp.protocolSource}`;
  // The enum lives in the HTTP package, which the proto and gRPC packages depend on; its values are fixed
  // (DELTA 0, CUMULATIVE 1, LOWMEMORY 2) and the same in the 0.2xx and 0.3xx lines.
  const temporalityPreference = { delta: 0, cumulative: 1, lowmemory: 2 }[otlp.temporality];
  const { url, timeoutMillis } = otlp;
  const config: OtlpConfig = { url, headers: { ...otlp.headers }, temporalityPreference, timeoutMillis };

  if (otlp.protocol === 'http/protobuf') {
    const name = '@opentelemetry/exporter-metrics-otlp-proto';
    const { OTLPMetricExporter } = await import('@opentelemetry/exporter-metrics-otlp-proto').catch(missingPeer(name, askedBy, line));
    return () => new OTLPMetricExporter(config);
  }
  if (otlp.protocol === 'http/json') {
    const name = '@opentelemetry/exporter-metrics-otlp-http';
    const { OTLPMetricExporter } = await import('@opentelemetry/exporter-metrics-otlp-http').catch(missingPeer(name, askedBy, line));
    return () => new OTLPMetricExporter(config);
  }
  const name = '@opentelemetry/exporter-metrics-otlp-grpc';
  const { OTLPMetricExporter } = await import('@opentelemetry/exporter-metrics-otlp-grpc').catch(missingPeer(name, askedBy, line));
  const entries = Object.entries(otlp.headers);
  if (entries.length === 0) {
    return () => new OTLPMetricExporter({ url, temporalityPreference, timeoutMillis });
  }
  // gRPC takes headers as grpc-js Metadata. @grpc/grpc-js is already installed under the gRPC exporter, but a
  // strict layout (pnpm) lets only a direct dependency import it.
  const { Metadata } = await import('@grpc/grpc-js').catch(missingPeer('@grpc/grpc-js', `${askedBy} and OTLP headers`, line));
  return () => {
    const metadata = new Metadata();
    for (const [key, value] of entries) {
      try {
        metadata.set(key, value);
      } catch {
        // The headers were checked against grpc-js's own rules; should a grpc-js release tighten them, its error
        // quotes the value, so it is neither shown nor kept as the cause.
        throw new TypeError(
          'backupstats: OTEL_EXPORTER_OTLP_HEADERS / OTEL_EXPORTER_OTLP_METRICS_HEADERS is <redacted> (@grpc/grpc-js refused one of the headers as gRPC metadata; the text is not shown because it may hold secrets); accepted: lower-case keys of letters, digits, "_", "." and "-" with printable ASCII values',
        );
      }
    }
    return new OTLPMetricExporter({ url, metadata, temporalityPreference, timeoutMillis });
  };
}
