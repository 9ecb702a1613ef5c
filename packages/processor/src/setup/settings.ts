import { NAMINGS, type Naming } from '../naming.js';
import { type Env, envError, listChoices, quote, readBoolean, readChoice, readInteger, readString } from './env.js';
import { ATTRIBUTE_RULE, GRPC_HEADER_RULE, HEADER_RULE, readPairs } from './pairs.js';

/** The exporters `OTEL_METRICS_EXPORTER` can name, besides `none`. */
export type ExporterName = 'otlp' | 'prometheus' | 'console';
/** OTLP transports. */
export type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc';
/** `OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE` values. */
export type TemporalityPreference = 'cumulative' | 'delta' | 'lowmemory';

const EXPORTER_CHOICES = ['otlp', 'prometheus', 'console', 'none'] as const;
const PROTOCOLS: readonly OtlpProtocol[] = ['http/protobuf', 'http/json', 'grpc'];
const TEMPORALITIES: readonly TemporalityPreference[] = ['cumulative', 'delta', 'lowmemory'];
/** Longest delay `setInterval` honours. */
const MAX_MILLIS = 2_147_483_647;

/** Where the OTLP exporter sends, how, and with which headers. */
export interface OtlpSettings {
  readonly protocol: OtlpProtocol;
  /** The variable (and value) that chose the protocol, for an error about a missing package. */
  readonly protocolSource: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly temporality: TemporalityPreference;
  /**
   * How long one export may take, retries included: `OTEL_EXPORTER_OTLP_METRICS_TIMEOUT`, else
   * `OTEL_EXPORTER_OTLP_TIMEOUT`, else the specification's 10 s, and never more than the export timeout, so that
   * no export outlives the reader's deadline (an abandoned one would keep retrying on timers that hold the
   * process).
   */
  readonly timeoutMillis: number;
}

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
  readonly resourceAttributes: Readonly<Record<string, string>>;
}

/** The core's options as the `BACKUPSTATS_*` variables give them; undefined where a variable is unset. */
export interface EnvStatsOptions {
  readonly flushIntervalMillis: number | undefined;
  readonly naming: Naming | undefined;
  readonly metricPrefix: string | undefined;
  readonly maxScopes: number | undefined;
}

/** Whether set-up is turned off: the `disabled` option, else `BACKUPSTATS_DISABLED`, else `OTEL_SDK_DISABLED`. */
export function readDisabled(env: Env, option: boolean | undefined): boolean {
  if (option !== undefined) return option;
  // Both are read so that a bad value in either is reported even when the other one decides.
  const own = readBoolean(env, 'BACKUPSTATS_DISABLED');
  const sdk = readBoolean(env, 'OTEL_SDK_DISABLED');
  return own ?? sdk ?? false;
}

/** Reads the `BACKUPSTATS_*` options that `given` (options in code, which win) leaves open. */
export function readStatsOptions(
  env: Env,
  given: { readonly flushIntervalMillis?: unknown; readonly naming?: unknown; readonly metricPrefix?: unknown; readonly maxScopes?: unknown },
): EnvStatsOptions {
  return {
    flushIntervalMillis:
      given.flushIntervalMillis === undefined
        ? readInteger(env, 'BACKUPSTATS_FLUSH_INTERVAL_MS', 0, MAX_MILLIS, ' (milliseconds; 0 records straight into the instruments)')
        : undefined,
    naming: given.naming === undefined ? readChoice(env, 'BACKUPSTATS_NAMING', NAMINGS) : undefined,
    // The prefix is kept verbatim (not trimmed): the core checks that it yields valid metric names.
    metricPrefix: given.metricPrefix === undefined && readString(env, 'BACKUPSTATS_METRIC_PREFIX') !== undefined ? env.BACKUPSTATS_METRIC_PREFIX : undefined,
    maxScopes: given.maxScopes === undefined ? readInteger(env, 'BACKUPSTATS_MAX_SCOPES', 2, Number.MAX_SAFE_INTEGER, '') : undefined,
  };
}

/** Reads the variables that shape the MeterProvider, readers and exporters; throws on the first bad one. */
export function readExportSettings(env: Env): ExportSettings {
  const { exporters, exportersSource } = readExporters(env);
  const intervalMillis = readInteger(env, 'OTEL_METRIC_EXPORT_INTERVAL', 1, MAX_MILLIS, ' (milliseconds)') ?? 60_000;
  const explicitTimeout = readInteger(env, 'OTEL_METRIC_EXPORT_TIMEOUT', 1, MAX_MILLIS, ' (milliseconds)');
  if (explicitTimeout !== undefined && explicitTimeout > intervalMillis) {
    throw envError(
      'OTEL_METRIC_EXPORT_TIMEOUT',
      quote(env.OTEL_METRIC_EXPORT_TIMEOUT ?? ''),
      `an integer from 1 to OTEL_METRIC_EXPORT_INTERVAL (${intervalMillis})`,
      'an export must end before the next one starts',
    );
  }
  // Like the SDK, a default timeout longer than a configured interval shrinks to the interval.
  const timeoutMillis = explicitTimeout ?? Math.min(30_000, intervalMillis);
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
    resourceAttributes,
  };
}

function readExporters(env: Env): { exporters: ExporterName[]; exportersSource: string } {
  const name = 'OTEL_METRICS_EXPORTER';
  const raw = readString(env, name);
  // The specification's default is otlp: a program that sets nothing pushes to a collector on localhost:4318.
  if (raw === undefined) return { exporters: ['otlp'], exportersSource: `${name} (unset, so "otlp")` };
  const accepted = `a comma-separated list of ${listChoices(EXPORTER_CHOICES)} ("none" alone)`;
  const names = new Set<string>();
  for (const item of raw.split(',')) {
    const lower = item.trim().toLowerCase();
    if (lower === '') continue;
    if (!(EXPORTER_CHOICES as readonly string[]).includes(lower)) {
      throw envError(name, quote(env[name] ?? ''), accepted, `${quote(item.trim())} is not an exporter`);
    }
    names.add(lower);
  }
  if (names.size === 0) throw envError(name, quote(env[name] ?? ''), accepted, 'it names no exporter');
  if (names.has('none') && names.size > 1) {
    throw envError(name, quote(env[name] ?? ''), accepted, '"none" cannot be combined with an exporter');
  }
  names.delete('none');
  return { exporters: [...names] as ExporterName[], exportersSource: `${name}=${quote(raw)}` };
}

function readOtlp(env: Env, exportTimeoutMillis: number): OtlpSettings {
  const specificProtocol = readChoice(env, 'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL', PROTOCOLS);
  const generalProtocol = readChoice(env, 'OTEL_EXPORTER_OTLP_PROTOCOL', PROTOCOLS);
  const protocol = specificProtocol ?? generalProtocol ?? 'http/protobuf';
  const protocolSource =
    specificProtocol !== undefined
      ? `OTEL_EXPORTER_OTLP_METRICS_PROTOCOL=${quote(protocol)}`
      : generalProtocol !== undefined
        ? `OTEL_EXPORTER_OTLP_PROTOCOL=${quote(protocol)}`
        : 'OTEL_EXPORTER_OTLP_PROTOCOL (unset, so "http/protobuf")';
  const grpc = protocol === 'grpc';
  const example = grpc ? 'http://collector:4317' : 'http://collector:4318';

  // The signal-specific endpoint is used as it is; the general one gets the signal's path (HTTP only), as the
  // OTLP exporter specification says.
  let url = grpc ? 'http://localhost:4317' : 'http://localhost:4318/v1/metrics';
  const specific = readUrl(env, 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT', example);
  const general = readUrl(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', example);
  if (specific !== undefined) url = specific;
  else if (general !== undefined) url = grpc ? general : `${general.replace(/\/$/, '')}/v1/metrics`;

  // Signal-specific headers win key by key, as in the OpenTelemetry exporters. Names are compared in lower case
  // (HTTP header names are case-insensitive, gRPC metadata keys are lower case).
  const rule = grpc ? GRPC_HEADER_RULE : HEADER_RULE;
  const headers = {
    ...lowerCaseKeys(readPairs(env, 'OTEL_EXPORTER_OTLP_HEADERS', rule)),
    ...lowerCaseKeys(readPairs(env, 'OTEL_EXPORTER_OTLP_METRICS_HEADERS', rule)),
  };
  const temporality = readChoice(env, 'OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE', TEMPORALITIES) ?? 'cumulative';
  const specificTimeout = readInteger(env, 'OTEL_EXPORTER_OTLP_METRICS_TIMEOUT', 1, MAX_MILLIS, ' (milliseconds)');
  const generalTimeout = readInteger(env, 'OTEL_EXPORTER_OTLP_TIMEOUT', 1, MAX_MILLIS, ' (milliseconds)');
  const timeoutMillis = Math.min(specificTimeout ?? generalTimeout ?? 10_000, exportTimeoutMillis);
  return { protocol, protocolSource, url, headers, temporality, timeoutMillis };
}

function lowerCaseKeys(pairs: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(pairs ?? {}).map(([key, value]) => [key.toLowerCase(), value]));
}

function readUrl(env: Env, name: string, example: string): string | undefined {
  const value = readString(env, name);
  if (value === undefined) return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(value);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.host === '') {
    throw envError(name, quote(env[name] ?? ''), `an http:// or https:// URL, e.g. "${example}"`);
  }
  return value;
}

function readPrometheus(env: Env): PrometheusSettings {
  return {
    host: readString(env, 'OTEL_EXPORTER_PROMETHEUS_HOST') ?? 'localhost',
    port: readInteger(env, 'OTEL_EXPORTER_PROMETHEUS_PORT', 1, 65_535, ' (a TCP port)') ?? 9464,
  };
}
