import { ERROR_CODES, notAccepted, quote } from '../../base/errors.js';
import { GRPC_HEADER_RULE, HEADER_RULE, redactUrl } from '../../base/http.js';
import { TIMER_MILLIS } from '../../base/integer-rule.js';
import type { HistogramAggregation } from '../../histogram/histogram-producer.js';
import { DEFAULT_OTLP_TIMEOUT_MILLIS } from './defaults.js';
import { type Env, readChoice, readInteger, readString } from './env.js';
import { readPairs } from './pairs.js';

/** OTLP transports. */
export type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc';
/** `OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE` values. */
export type TemporalityPreference = 'cumulative' | 'delta' | 'lowmemory';

const PROTOCOLS: readonly OtlpProtocol[] = ['http/protobuf', 'http/json', 'grpc'];
const TEMPORALITIES: readonly TemporalityPreference[] = ['cumulative', 'delta', 'lowmemory'];

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
  /**
   * How the OTLP reader gets the latency histograms: `OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION`,
   * `explicit_bucket_histogram` (the specification's default) or `base2_exponential_bucket_histogram`.
   */
  readonly histogramAggregation: HistogramAggregation;
}

const HISTOGRAM_AGGREGATIONS = ['explicit_bucket_histogram', 'base2_exponential_bucket_histogram'] as const;

/** Reads the `OTEL_EXPORTER_OTLP_*` variables; the signal-specific (`_METRICS_`) ones win over the general ones. */
export function readOtlp(env: Env, exportTimeoutMillis: number): OtlpSettings {
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
  else if (general !== undefined) url = grpc ? general : withSignalPath(general);

  // Signal-specific headers win key by key, as in the OpenTelemetry exporters. Names are compared in lower case
  // (HTTP header names are case-insensitive, gRPC metadata keys are lower case).
  const rule = grpc ? GRPC_HEADER_RULE : HEADER_RULE;
  const headers = {
    ...lowerCaseKeys(readPairs(env, 'OTEL_EXPORTER_OTLP_HEADERS', rule)),
    ...lowerCaseKeys(readPairs(env, 'OTEL_EXPORTER_OTLP_METRICS_HEADERS', rule)),
  };
  const temporality =
    readChoice(env, 'OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE', TEMPORALITIES) ?? 'cumulative';
  const specificTimeout = readInteger(env, 'OTEL_EXPORTER_OTLP_METRICS_TIMEOUT', TIMER_MILLIS);
  const generalTimeout = readInteger(env, 'OTEL_EXPORTER_OTLP_TIMEOUT', TIMER_MILLIS);
  const timeoutMillis = Math.min(specificTimeout ?? generalTimeout ?? DEFAULT_OTLP_TIMEOUT_MILLIS, exportTimeoutMillis);
  const aggregation = readChoice(
    env,
    'OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION',
    HISTOGRAM_AGGREGATIONS,
  );
  const histogramAggregation = aggregation === 'base2_exponential_bucket_histogram' ? 'exponential' : 'explicit';
  return { protocol, protocolSource, url, headers, temporality, timeoutMillis, histogramAggregation };
}

/** The general endpoint with the metrics path after its own path (not after its query, which it keeps). */
function withSignalPath(endpoint: string): string {
  const url = new URL(endpoint);
  url.pathname = `${url.pathname.replace(/\/$/, '')}/v1/metrics`;
  return url.href;
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
    throw notAccepted(
      ERROR_CODES.INVALID_ENV,
      name,
      quote(redactUrl(value)),
      `an http:// or https:// URL, e.g. "${example}"`,
    );
  }
  return value;
}
