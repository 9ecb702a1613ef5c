import type { Resource } from '@opentelemetry/resources';
import type { MetricReader, PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { ERROR_CODES, withCode } from '../../base/errors.js';
import { missingPeer, type SdkLine } from '../../base/missing-peer.js';
import {
  createHistogramProducer,
  type HistogramAggregation,
  type HistogramProducer,
  type HistogramTemporality,
} from '../../histogram/histogram-producer.js';
import { groupingKeyOf, groupingPath } from '../../pushgateway/grouping-key.js';
import { fileOfSameJob, IDENTITY_ATTRIBUTES, sameJobText, serviceNameOf } from '../../textfile/job-identity.js';
import { openTextfileExporter } from '../../textfile/textfile-exporter.js';
import type { ExportSettings } from '../env/export-settings.js';
import type { TemporalityPreference } from '../env/otlp-settings.js';
import { TEXTFILE_PATH_VARIABLE } from '../env/textfile-settings.js';
import { type DeliveryWatch, watchDelivery } from './delivery.js';
import { loadOtlpExporter, type OtlpExporterFactory } from './otlp-exporters.js';
import type { PrometheusEndpoint } from './prometheus-endpoint.js';

type SdkMetrics = typeof import('@opentelemetry/sdk-metrics');
type PrometheusModule = typeof import('@opentelemetry/exporter-prometheus');

/** The readers of the MeterProvider that set-up builds, and how to start and stop the ones that listen. */
export interface Readers {
  readonly readers: MetricReader[];
  /** One per reader: the latency histograms in the aggregation its exporter carries, for the stats to attach to. */
  readonly producers: readonly HistogramProducer[];
  /** One per push exporter, to report at shutdown what did not reach its backend. */
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
 * Loads the exporter packages the settings ask for, all of them first, so that a missing package fails before
 * anything is built; then builds one reader per exporter. `line` is the installed SDK's, for the install hint of
 * a missing exporter; `resourceAttributes` are the provider's, which give the Pushgateway its job and instance.
 */
export async function buildReaders(
  settings: ExportSettings,
  sdk: SdkMetrics,
  line: SdkLine,
  resourceAttributes: Readonly<Record<string, unknown>>,
): Promise<Readers> {
  let otlp: OtlpExporterFactory | undefined;
  let prometheusModule: PrometheusModule | undefined;
  // The Pushgateway client and the scrape endpoint load only when configured: they bring Node.js' http and https
  // modules (and with them tls), whose loading a job that exports elsewhere would pay at every start.
  let pushgatewayModule: typeof import('../../pushgateway/pushgateway-exporter.js') | undefined;
  let endpointModule: typeof import('./prometheus-endpoint.js') | undefined;
  for (const name of settings.exporters) {
    if (name === 'pushgateway') pushgatewayModule = await import('../../pushgateway/pushgateway-exporter.js');
    if (name === 'prometheus') endpointModule = await import('./prometheus-endpoint.js');
    if (name === 'otlp' && settings.otlp !== undefined)
      otlp = await loadOtlpExporter(settings.otlp, settings.exportersSource, line);
    // The Pushgateway and textfile exporters write the text format with exporter-prometheus's serializer.
    if (name !== 'otlp' && name !== 'console' && prometheusModule === undefined) {
      const onMissing = missingPeer('@opentelemetry/exporter-prometheus', settings.exportersSource, line);
      prometheusModule = await import('@opentelemetry/exporter-prometheus').catch(onMissing);
    }
  }

  const readers: MetricReader[] = [];
  const producers: HistogramProducer[] = [];
  const deliveries: DeliveryWatch[] = [];
  let endpoint: PrometheusEndpoint | undefined;
  /**
   * A producer of the histograms for one reader (each its own: a delta one remembers what its reader was given),
   * in the aggregation and temporality its exporter carries.
   */
  const histograms = (
    aggregation: HistogramAggregation,
    temporality: HistogramTemporality = 'cumulative',
  ): HistogramProducer[] => {
    const producer = createHistogramProducer({ aggregation, temporality });
    producers.push(producer);
    return [producer];
  };
  const periodic = (
    exporter: PushMetricExporter,
    label: string,
    aggregation: HistogramAggregation,
    temporality?: HistogramTemporality,
  ): MetricReader => {
    const watch = watchDelivery(exporter, label);
    deliveries.push(watch);
    return new sdk.PeriodicExportingMetricReader({
      exporter: watch.exporter,
      exportIntervalMillis: settings.intervalMillis,
      exportTimeoutMillis: settings.timeoutMillis,
      metricProducers: histograms(aggregation, temporality),
    });
  };
  for (const name of settings.exporters) {
    if (name === 'console') readers.push(periodic(new sdk.ConsoleMetricExporter(), 'console exporter', 'explicit'));
    if (name === 'otlp' && otlp !== undefined) {
      const aggregation = settings.otlp?.histogramAggregation ?? 'explicit';
      readers.push(
        periodic(otlp.create(), otlp.label, aggregation, histogramTemporalityOf(settings.otlp?.temporality)),
      );
    }
    const push = settings.pushgateway;
    if (
      name === 'pushgateway' &&
      push !== undefined &&
      prometheusModule !== undefined &&
      pushgatewayModule !== undefined
    ) {
      // Job and instance are resolved here, from the resource, so that messages name the group.
      const key = groupingKeyOf(resourceAttributes, { labels: push.labels });
      const config = { ...push, ...key, timeoutMillis: settings.timeoutMillis };
      // No prefix, and no timestamps: the Pushgateway refuses pushed samples that have one.
      const exporter = pushgatewayModule.openPushgatewayExporter(
        config,
        new prometheusModule.PrometheusSerializer(undefined, false),
      );
      const url = `${push.url.origin}${push.url.pathname.replace(/\/+$/, '')}${groupingPath(key)}`;
      // exporter-prometheus writes explicit-bucket histograms only.
      readers.push(periodic(exporter, `Pushgateway exporter (POST ${url})`, 'explicit'));
    }
    const textfile = settings.textfile;
    if (name === 'textfile' && textfile !== undefined && prometheusModule !== undefined) {
      // A second job of the same service name in the directory is refused here, before anything is written.
      const serviceName = serviceNameOf(resourceAttributes);
      const other = fileOfSameJob(textfile.path, serviceName);
      if (other !== undefined) {
        throw withCode(
          new Error(sameJobText(TEXTFILE_PATH_VARIABLE, textfile.path, other, serviceName)),
          ERROR_CODES.TEXTFILE_TAKEN,
        );
      }
      // No prefix and no timestamps; service.name on every series, since node_exporter's job is the host's.
      const serializer = new prometheusModule.PrometheusSerializer(undefined, false, IDENTITY_ATTRIBUTES);
      const exporter = openTextfileExporter(textfile.path, serializer, TEXTFILE_PATH_VARIABLE);
      readers.push(periodic(exporter, `textfile exporter (${textfile.path})`, 'explicit'));
    }
    const where = settings.prometheus;
    if (
      name === 'prometheus' &&
      where !== undefined &&
      prometheusModule !== undefined &&
      endpointModule !== undefined
    ) {
      // The exporter's own server never starts: set-up serves its scrapes (see createPrometheusEndpoint). Host
      // and port are still passed so that exporter 0.2xx does not read OTEL_EXPORTER_PROMETHEUS_* from
      // process.env.
      // exporter-prometheus writes explicit-bucket histograms only (an exponential one would come out empty).
      const exporter = new prometheusModule.PrometheusExporter({
        host: where.host,
        port: where.port,
        preventServerStart: true,
        metricProducers: histograms('explicit'),
      });
      endpoint = endpointModule.createPrometheusEndpoint(exporter, where.host, where.port);
      readers.push(exporter);
    }
  }

  return {
    readers,
    producers,
    deliveries,
    async listen() {
      try {
        await endpoint?.listen();
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw withCode(
          new Error(
            `backupstats: the Prometheus exporter could not listen on ${settings.prometheus?.host}:${settings.prometheus?.port} ` +
              `(OTEL_EXPORTER_PROMETHEUS_HOST / OTEL_EXPORTER_PROMETHEUS_PORT): ${reason}`,
            { cause: error },
          ),
          ERROR_CODES.LISTEN_FAILED,
        );
      }
    },
    async close(graceMillis) {
      await endpoint?.close(graceMillis);
    },
  };
}

type ResourcesModule = typeof import('@opentelemetry/resources');

/**
 * The resource of the MeterProvider that set-up builds: the SDK's default one (`service.name` =
 * `unknown_service:node`, `telemetry.sdk.*`) with the attributes of `OTEL_RESOURCE_ATTRIBUTES` and
 * `OTEL_SERVICE_NAME` on top. The SDK's `envDetector` is not used because it reads only `process.env` and drops
 * malformed lists silently; the attributes here were parsed strictly from the caller's environment.
 */
export function buildResource(resources: ResourcesModule, attributes: Readonly<Record<string, string>>): Resource {
  return resources.defaultResource().merge(resources.resourceFromAttributes(attributes));
}

/**
 * The histograms' temporality under `OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE`, as the specification maps
 * it for a Histogram instrument: delta under `delta` and `lowmemory`, cumulative under `cumulative`.
 */
function histogramTemporalityOf(preference: TemporalityPreference | undefined): HistogramTemporality {
  return preference === 'delta' || preference === 'lowmemory' ? 'delta' : 'cumulative';
}
