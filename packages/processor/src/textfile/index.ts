/**
 * A metric exporter that writes a file for node_exporter's textfile collector.
 *
 * @module backupstats/textfile
 */
import type { PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { optionsOf } from '../base/arguments.js';
import { ERROR_CODES } from '../base/errors.js';
import { exporterAfterPeer } from '../base/peer-exporter.js';
import { requirePeer } from '../base/peer-resolve.js';
import { peerMissing } from '../diagnostics/messages.js';
import { IDENTITY_ATTRIBUTES } from './job-identity.js';
import { prepareTextfileExporter } from './textfile-exporter.js';
import { checkTextfilePath } from './textfile-path.js';

/** Options of {@link createTextfileExporter}. */
export interface TextfileExporterOptions {
  /**
   * The `.prom` file to write, in node_exporter's `--collector.textfile.directory` (which must exist and be
   * writable by this process). One file per job: two jobs with the same `service.name` in one directory are refused.
   */
  readonly path: string;
}

const FN = 'createTextfileExporter';

/**
 * A PushMetricExporter that writes the metrics to a file for node_exporter's textfile collector, for a
 * `PeriodicExportingMetricReader` of your own (a MeterProvider you build, or the NodeSDK's `metricReaders`): every
 * export, and the final one at shutdown, replaces the file atomically (a temporary file in the same directory,
 * fsync, rename; mode 0644) with the Prometheus text format that the Prometheus exporter serves (exporter-prometheus's
 * `PrometheusSerializer`, no timestamps), every series labelled `service_name` from the resource.
 *
 * The file it replaces is the previous run's: its last success and last failure of each backup are kept until this
 * process has newer ones. A write that fails is reported once through diag, with the path and the reason; the next
 * export tries again.
 *
 * Needs `@opentelemetry/exporter-prometheus`, loaded when the exporter is made: without it, creating
 * the exporter throws `BACKUPSTATS_MISSING_PEER` with the `npm install` line.
 *
 * One process at a time writes a file: the exporter takes a lock beside it (`.<name>.lock`, holding the process id)
 * until its shutdown; a lock whose process no longer runs is taken over.
 *
 * @throws TypeError naming the option, its value and what is accepted: a path that does not end in `.prom`, or whose
 *   directory does not exist or is not writable.
 * @throws Error `BACKUPSTATS_MISSING_PEER` with the `npm install` line when `@opentelemetry/exporter-prometheus` is
 *   not installed. (One that is installed but fails to load fails every export with what loading threw.)
 * @throws Error `BACKUPSTATS_TEXTFILE_TAKEN` naming the process when a running process writes the file.
 */
export function createTextfileExporter(options: TextfileExporterOptions): PushMetricExporter {
  const given = optionsOf(FN, options, '{ path: "/var/lib/prometheus/node-exporter/backup.prom" }', ['path']);
  const subject = `${FN} option path`;
  const path = checkTextfilePath(ERROR_CODES.INVALID_OPTION, subject, given.path);
  requirePeer('@opentelemetry/exporter-prometheus', FN);
  // A literal import(), as set-up's: a bundler carries the package when it is installed. No prefix and no
  // timestamps (node_exporter refuses them); service.name on every series, to tell jobs apart.
  const open = prepareTextfileExporter(path, subject);
  const loading = import('@opentelemetry/exporter-prometheus').then(({ PrometheusSerializer }) =>
    open(new PrometheusSerializer(undefined, false, IDENTITY_ATTRIBUTES)),
  );
  return exporterAfterPeer(loading, '@opentelemetry/exporter-prometheus', FN, peerMissing);
}
