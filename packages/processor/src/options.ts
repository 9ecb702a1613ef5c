import type { MeterProvider } from '@opentelemetry/api';
import { DEFAULT_MAX_SCOPES } from './cardinality.js';
import { NAMINGS, type Naming } from './naming.js';

/** Options of {@link createBackupStats}. */
export interface BackupStatsOptions {
  /**
   * The MeterProvider to create instruments in. Default: the global one from `@opentelemetry/api`, followed
   * when it is registered after the stats are created (measurements wait until then, none is lost).
   */
  readonly meterProvider?: MeterProvider | undefined;
  /**
   * How often pending measurements are added to the instruments, in milliseconds. Default 1000. `0` adds
   * every measurement to the instruments as it is recorded (costly: about a microsecond per instrument call).
   * Every collection by a MetricReader flushes too, so exports are never stale whatever the interval.
   */
  readonly flushIntervalMillis?: number | undefined;
  /** `otel` (default) or `vitess` names and units. */
  readonly naming?: Naming | undefined;
  /** Text put in front of every metric name, for example `vtbackup_`. Default empty. */
  readonly metricPrefix?: string | undefined;
  /**
   * Most series per instrument, the overflow series included: each family holds at most `maxScopes - 1` label
   * combinations. Past them, measurements go to one series with the attribute `otel.metric.overflow=true`, so
   * totals stay right and memory stays flat. Default 1999, the most a MeterProvider with the SDK's stock
   * cardinality limit (2000) keeps without folding any into its own overflow; above it, the provider's
   * `aggregationCardinalityLimit` must be at least `maxScopes + 1` (`startBackupStats` sets it).
   */
  readonly maxScopes?: number | undefined;
}

/** Options after defaults and validation. */
export interface ResolvedOptions {
  readonly flushIntervalMillis: number;
  readonly naming: Naming;
  readonly metricPrefix: string;
  readonly maxScopes: number;
}

/** The default `flushIntervalMillis`. */
export const DEFAULT_FLUSH_INTERVAL_MILLIS = 1000;

/** Longest interval `setInterval` honours (2^31 - 1 ms). */
const MAX_INTERVAL = 2_147_483_647;

function invalid(option: string, value: unknown, accepted: string): Error {
  return new TypeError(`backupstats: option ${option} is ${describe(value)}; accepted: ${accepted}`);
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === null) return 'null';
  return `a value of type ${typeof value}`;
}

/** Applies defaults and throws a TypeError naming the option, its value and what is accepted. */
export function resolveOptions(options: BackupStatsOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`backupstats: options must be an object, got ${describe(options)}`);
  }
  const { flushIntervalMillis = DEFAULT_FLUSH_INTERVAL_MILLIS, naming = 'otel', metricPrefix = '', maxScopes = DEFAULT_MAX_SCOPES } = options;
  if (!Number.isInteger(flushIntervalMillis) || flushIntervalMillis < 0 || flushIntervalMillis > MAX_INTERVAL) {
    throw invalid('flushIntervalMillis', flushIntervalMillis, `an integer from 0 to ${MAX_INTERVAL} (milliseconds)`);
  }
  if (!NAMINGS.includes(naming)) {
    throw invalid('naming', naming, NAMINGS.map((n) => `"${n}"`).join(' or '));
  }
  if (typeof metricPrefix !== 'string') {
    throw invalid('metricPrefix', metricPrefix, 'a string');
  }
  if (!Number.isInteger(maxScopes) || maxScopes < 2) {
    throw invalid('maxScopes', maxScopes, 'an integer of 2 or more (the series of the root scope and the overflow series)');
  }
  const provider = options.meterProvider;
  if (provider !== undefined && (typeof provider !== 'object' || provider === null || typeof provider.getMeter !== 'function')) {
    throw invalid('meterProvider', provider, 'an OpenTelemetry MeterProvider (an object with getMeter())');
  }
  return { flushIntervalMillis, naming, metricPrefix, maxScopes };
}

/** Throws unless `name` is a valid instrument name, blaming the prefix that produced it. */
export function checkMetricName(name: string, prefix: string, pattern: RegExp): void {
  if (!pattern.test(name)) {
    throw invalid(
      'metricPrefix',
      prefix,
      `text that keeps metric names valid in OpenTelemetry (a letter first, then up to 254 letters, digits, "_", ".", "-" or "/"); "${name}" is not`,
    );
  }
}
