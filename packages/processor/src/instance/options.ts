import type { MeterProvider } from '@opentelemetry/api';
import { ERROR_CODES, listChoices, notAccepted, showValue } from '../base/errors.js';
import { type IntegerRule, integerText, isIntegerIn, MAX_TIMER_MILLIS } from '../base/integer-rule.js';
import { DEFAULT_MAX_SCOPES } from '../family/family-registry.js';
import { type ResolvedHistogramOptions, resolveHistogramOptions } from '../histogram/histogram-options.js';
import type { HistogramProducer } from '../histogram/histogram-producer.js';
import { familySpec, INSTRUMENT_NAME } from '../naming/counter-naming.js';
import { FAMILIES, NAMINGS, type Naming, selfMetricNames } from '../naming/naming-types.js';
import { runInstrumentNames } from '../naming/run-naming.js';

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
  /**
   * Keep a latency histogram per series (default `true`) when there are {@link histogramProducers} to hand them to
   * readers: every record with a duration adds it to local buckets (docs/histograms.md). `false` keeps none.
   */
  readonly histograms?: boolean | undefined;
  /**
   * The explicit bucket boundaries of the histograms, in seconds (Prometheus' `le`). Default 10 µs to 100 s,
   * 1-2.5-5 in every decade.
   */
  readonly histogramBoundaries?: readonly number[] | undefined;
  /**
   * The producers that hand the histograms to MetricReaders: made by `createHistogramProducer()` and given to the
   * readers' `metricProducers` too. `startBackupStats` makes and wires them for the readers it builds.
   */
  readonly histogramProducers?: readonly HistogramProducer[] | undefined;
  /**
   * `true`: never write to stderr by itself. A misuse reported once (a dropped measurement, an unknown label) goes to
   * the OpenTelemetry diag logger when one is set, else to stderr, so that it is seen; this silences the latter.
   * Default `false`.
   */
  readonly quiet?: boolean | undefined;
}

/** Options after defaults and validation. */
export interface ResolvedOptions extends ResolvedHistogramOptions {
  readonly meterProvider: MeterProvider | undefined;
  readonly flushIntervalMillis: number;
  readonly naming: Naming;
  readonly metricPrefix: string;
  readonly maxScopes: number;
  readonly quiet: boolean;
}

/**
 * Every option of {@link createBackupStats}, once, checked against the interface by its type (an option missing
 * here, or one the interface does not have, fails to compile): the warning about options the core does not know,
 * set-up's start options and its variables derive from it.
 */
const CORE_OPTION_SET: Readonly<Record<keyof BackupStatsOptions, true>> = {
  meterProvider: true,
  flushIntervalMillis: true,
  naming: true,
  metricPrefix: true,
  maxScopes: true,
  histograms: true,
  histogramBoundaries: true,
  histogramProducers: true,
  quiet: true,
};

/** The options of {@link createBackupStats}, for the warning about options it does not know. */
export const CORE_OPTIONS = Object.freeze(Object.keys(CORE_OPTION_SET) as (keyof BackupStatsOptions)[]);

/** The example of an options object in the messages. */
export const OPTIONS_EXAMPLE = "{ naming: 'vitess' }";

/** The default `flushIntervalMillis`. */
export const DEFAULT_FLUSH_INTERVAL_MILLIS = 1000;

const FLUSH_INTERVAL: IntegerRule = {
  min: 0,
  max: MAX_TIMER_MILLIS,
  note: 'milliseconds; 0 records straight into the instruments',
};
const MAX_SCOPES: IntegerRule = {
  min: 2,
  max: Number.MAX_SAFE_INTEGER,
  note: 'the series of the root scope and the overflow series',
};

/**
 * The options that `backupstats/setup` can also read from a variable (setup/env/stats-variables.ts): all but the
 * objects, and `quiet`, which set-up reads with the log settings.
 */
export type VariableOption = Exclude<keyof BackupStatsOptions, 'meterProvider' | 'histogramProducers' | 'quiet'>;

/** Where an option's value came from when not from code: the variable to blame and its text as written. */
export interface ValueSource {
  readonly subject: string;
  readonly shown: string;
  /** What the variable accepts, when its text differs from the option's values (`"true"` for `true`). */
  readonly accepted?: string | undefined;
}

/**
 * Applies defaults and checks every option once. The TypeError names what the user set: `option <name>` and the
 * value, or the variable and its text for an option `sources` says came from one.
 */
export function resolveOptions(
  options: BackupStatsOptions,
  sources: Partial<Record<VariableOption, ValueSource>> = {},
): ResolvedOptions {
  const {
    flushIntervalMillis = DEFAULT_FLUSH_INTERVAL_MILLIS,
    naming = 'otel',
    metricPrefix = '',
    maxScopes = DEFAULT_MAX_SCOPES,
    meterProvider,
    quiet = false,
  } = options;
  const invalid = (option: VariableOption, value: unknown, accepted: string, detail?: string): TypeError => {
    const source = sources[option];
    const said = source?.accepted ?? accepted;
    // A source is always a variable that set-up read.
    const code = source === undefined ? ERROR_CODES.INVALID_OPTION : ERROR_CODES.INVALID_ENV;
    return notAccepted(code, source?.subject ?? `option ${option}`, source?.shown ?? showValue(value), said, detail);
  };
  if (!isIntegerIn(flushIntervalMillis, FLUSH_INTERVAL))
    throw invalid('flushIntervalMillis', flushIntervalMillis, integerText(FLUSH_INTERVAL));
  if (!NAMINGS.includes(naming)) throw invalid('naming', naming, listChoices(NAMINGS));
  if (typeof metricPrefix !== 'string') throw invalid('metricPrefix', metricPrefix, 'a string');
  if (!isIntegerIn(maxScopes, MAX_SCOPES)) throw invalid('maxScopes', maxScopes, integerText(MAX_SCOPES));
  if (
    meterProvider !== undefined &&
    (typeof meterProvider !== 'object' || meterProvider === null || typeof meterProvider.getMeter !== 'function')
  ) {
    throw notAccepted(
      ERROR_CODES.INVALID_OPTION,
      'option meterProvider',
      showValue(meterProvider),
      'an OpenTelemetry MeterProvider (an object with getMeter())',
    );
  }
  if (typeof quiet !== 'boolean')
    throw notAccepted(ERROR_CODES.INVALID_OPTION, 'option quiet', showValue(quiet), 'true or false');
  const badName = invalidMetricName(naming, metricPrefix);
  if (badName !== undefined) {
    throw invalid(
      'metricPrefix',
      metricPrefix,
      `text that keeps metric names valid in OpenTelemetry (a letter first, then up to 254 letters, digits, "_", ".", "-" or "/"); "${badName}" is not`,
    );
  }
  const histogramOptions = resolveHistogramOptions(options, invalid);
  return { meterProvider, flushIntervalMillis, naming, metricPrefix, maxScopes, quiet, ...histogramOptions };
}

/** The first metric name the prefix makes invalid, if any. */
function invalidMetricName(naming: Naming, prefix: string): string | undefined {
  for (const family of FAMILIES) {
    const { operations, bytes, time, duration, run } = familySpec(naming, family, prefix);
    const bad = [
      operations.name,
      bytes.name,
      time.name,
      duration.name,
      ...runInstrumentNames(run),
      ...Object.values(selfMetricNames(prefix)),
    ].find((name) => !INSTRUMENT_NAME.test(name));
    if (bad !== undefined) return bad;
  }
  return undefined;
}
