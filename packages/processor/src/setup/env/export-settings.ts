import { ERROR_CODES, listChoices, notAccepted, quote } from '../../base/errors.js';
import { TIMER_MILLIS } from '../../base/integer-rule.js';
import {
  DEFAULT_EXPORT_INTERVAL_MILLIS,
  DEFAULT_EXPORT_TIMEOUT_MILLIS,
  DEFAULT_PROMETHEUS_HOST,
  DEFAULT_PROMETHEUS_PORT,
} from './defaults.js';
import { type Env, readInteger, readString, shown } from './env.js';
import { type OtlpSettings, readOtlp } from './otlp-settings.js';
import { ATTRIBUTE_RULE, readPairs } from './pairs.js';
import { type PushgatewaySettings, readPushgateway } from './pushgateway-settings.js';
import { readTextfile, type TextfileSettings } from './textfile-settings.js';

/** The exporters `OTEL_METRICS_EXPORTER` can name, besides `none`. */
export type ExporterName = 'otlp' | 'prometheus' | 'pushgateway' | 'textfile' | 'console';

const EXPORTER_CHOICES = ['otlp', 'prometheus', 'pushgateway', 'textfile', 'console', 'none'] as const;

/** Where the Prometheus endpoint listens. */
export interface PrometheusSettings {
  readonly host: string;
  readonly port: number;
}

/** Everything the environment says about the MeterProvider that {@link startBackupStats} builds. */
export interface ExportSettings {
  readonly exporters: readonly ExporterName[];
  /** The variable (and value) that chose the exporters, for an error about a missing package. */
  readonly exportersSource: string;
  readonly intervalMillis: number;
  /** `OTEL_METRIC_EXPORT_TIMEOUT`: the deadline of every export, the final one at shutdown included. */
  readonly timeoutMillis: number;
  readonly otlp: OtlpSettings | undefined;
  readonly prometheus: PrometheusSettings | undefined;
  readonly pushgateway: PushgatewaySettings | undefined;
  readonly textfile: TextfileSettings | undefined;
  readonly resourceAttributes: Readonly<Record<string, string>>;
}

/** Reads the variables that shape the MeterProvider, readers and exporters; throws on the first bad one. */
export function readExportSettings(env: Env): ExportSettings {
  const { exporters, exportersSource } = readExporters(env);
  const intervalMillis =
    readInteger(env, 'OTEL_METRIC_EXPORT_INTERVAL', TIMER_MILLIS) ?? DEFAULT_EXPORT_INTERVAL_MILLIS;
  const explicitTimeout = readInteger(env, 'OTEL_METRIC_EXPORT_TIMEOUT', TIMER_MILLIS);
  // Only pushes are periodic exports that must end before the next one; Prometheus is pulled.
  const pushes = exporters.some((name) => name !== 'prometheus');
  if (pushes && explicitTimeout !== undefined && explicitTimeout > intervalMillis) {
    throw notAccepted(
      ERROR_CODES.INVALID_ENV,
      'OTEL_METRIC_EXPORT_TIMEOUT',
      shown(env, 'OTEL_METRIC_EXPORT_TIMEOUT'),
      `an integer from 1 to OTEL_METRIC_EXPORT_INTERVAL (${intervalMillis})`,
      'an export must end before the next one starts',
    );
  }
  // Like the SDK, a default timeout longer than a configured interval shrinks to the interval.
  const timeoutMillis =
    explicitTimeout ??
    (pushes ? Math.min(DEFAULT_EXPORT_TIMEOUT_MILLIS, intervalMillis) : DEFAULT_EXPORT_TIMEOUT_MILLIS);
  const resourceAttributes: Record<string, string> = { ...readPairs(env, 'OTEL_RESOURCE_ATTRIBUTES', ATTRIBUTE_RULE) };
  const serviceName = readString(env, 'OTEL_SERVICE_NAME');
  if (serviceName !== undefined) resourceAttributes['service.name'] = serviceName;
  return {
    exporters,
    exportersSource,
    intervalMillis,
    timeoutMillis,
    otlp: exporters.includes('otlp') ? readOtlp(env, timeoutMillis) : undefined,
    prometheus: exporters.includes('prometheus') ? readPrometheus(env) : undefined,
    pushgateway: exporters.includes('pushgateway') ? readPushgateway(env, Object.keys(resourceAttributes)) : undefined,
    textfile: exporters.includes('textfile') ? readTextfile(env) : undefined,
    resourceAttributes,
  };
}

function readExporters(env: Env): { exporters: ExporterName[]; exportersSource: string } {
  const name = 'OTEL_METRICS_EXPORTER';
  const raw = readString(env, name);
  // The specification's default is otlp: a program that sets nothing pushes to a collector on localhost:4318.
  if (raw === undefined) return { exporters: ['otlp'], exportersSource: `${name} (unset, so "otlp")` };
  const reject = (detail: string): TypeError =>
    notAccepted(
      ERROR_CODES.INVALID_ENV,
      name,
      shown(env, name),
      `a comma-separated list of ${listChoices(EXPORTER_CHOICES)} ("none" alone)`,
      detail,
    );
  const names = new Set<string>();
  for (const item of raw.split(',')) {
    const lower = item.trim().toLowerCase();
    if (lower === '') continue;
    if (!(EXPORTER_CHOICES as readonly string[]).includes(lower))
      throw reject(`${quote(item.trim())} is not an exporter`);
    names.add(lower);
  }
  if (names.size === 0) throw reject('it names no exporter');
  if (names.has('none') && names.size > 1) throw reject('"none" cannot be combined with an exporter');
  names.delete('none');
  return { exporters: [...names] as ExporterName[], exportersSource: `${name}=${quote(raw)}` };
}

function readPrometheus(env: Env): PrometheusSettings {
  return {
    host: readString(env, 'OTEL_EXPORTER_PROMETHEUS_HOST') ?? DEFAULT_PROMETHEUS_HOST,
    port:
      readInteger(env, 'OTEL_EXPORTER_PROMETHEUS_PORT', { min: 1, max: 65_535, note: 'a TCP port' }) ??
      DEFAULT_PROMETHEUS_PORT,
  };
}
