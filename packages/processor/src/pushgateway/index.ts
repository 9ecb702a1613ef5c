/**
 * A metric exporter that pushes to a Prometheus Pushgateway.
 *
 * @module backupstats/pushgateway
 */
import type { PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { exporterAfterPeer } from '../base/peer-exporter.js';
import { requirePeer } from '../base/peer-resolve.js';
import { peerMissing } from '../diagnostics/messages.js';
import { openPushgatewayExporter } from './pushgateway-exporter.js';
import { checkPushgatewayOptions, type PushgatewayExporterOptions } from './pushgateway-options.js';

export type { PushgatewayExporterOptions } from './pushgateway-options.js';

/**
 * A PushMetricExporter that pushes to a Prometheus Pushgateway, for a `PeriodicExportingMetricReader` of your own
 * (a MeterProvider you build, or the NodeSDK's `metricReaders`): every export, and the final one at shutdown, is a
 * POST of the metrics in Prometheus's text format (exporter-prometheus's `PrometheusSerializer`, no timestamps) to
 * `/metrics/job/<job>/instance/<instance>[/<label>/<value>…]`.
 *
 * POST replaces, within the group, only the metric names it carries, and a metric without data points is not
 * pushed: a new process of the same job and instance leaves the previous one's last success in place until it has
 * one of its own. A refused push (4xx) is reported through diag, quoting the answer; the job goes on. Leave the
 * reader's `maxExportBatchSize` unset: a metric split over two pushes would keep only the second half.
 *
 * Needs `@opentelemetry/exporter-prometheus`, loaded when the exporter is made: without it, creating
 * the exporter throws `BACKUPSTATS_MISSING_PEER` with the `npm install` line.
 *
 * @throws TypeError naming the option, its value (never a secret) and what is accepted.
 * @throws Error `BACKUPSTATS_MISSING_PEER` with the `npm install` line when `@opentelemetry/exporter-prometheus` is
 *   not installed. (One that is installed but fails to load fails every export with what loading threw.)
 */
export function createPushgatewayExporter(options?: PushgatewayExporterOptions): PushMetricExporter {
  const config = checkPushgatewayOptions(options);
  requirePeer('@opentelemetry/exporter-prometheus', 'createPushgatewayExporter');
  // A literal import(), as set-up's: a bundler carries the package when it is installed. No prefix, and no
  // timestamps: the Pushgateway refuses pushed samples that have one.
  const loading = import('@opentelemetry/exporter-prometheus').then(({ PrometheusSerializer }) =>
    openPushgatewayExporter(config, new PrometheusSerializer(undefined, false)),
  );
  return exporterAfterPeer(loading, '@opentelemetry/exporter-prometheus', 'createPushgatewayExporter', peerMissing);
}
