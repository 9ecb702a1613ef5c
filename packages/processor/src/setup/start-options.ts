import type { MeterProvider } from '@opentelemetry/api';
import type { MetricReader } from '@opentelemetry/sdk-metrics';
import { optionsOf } from '../base/arguments.js';
import { ERROR_CODES, notAcceptedArgument } from '../base/errors.js';
import { isObject } from '../base/values.js';
import { type BackupStatsOptions, CORE_OPTIONS } from '../instance/options.js';
import type { Env } from './env/env.js';

/** Options of {@link startBackupStats}. Options given here win over the environment. */
export interface StartBackupStatsOptions extends BackupStatsOptions {
  /** The variables to read. Default `process.env`. */
  readonly env?: Env | undefined;
  /** `true` returns stats that record nothing and builds no provider. Wins over `BACKUPSTATS_DISABLED` and `OTEL_SDK_DISABLED`. */
  readonly disabled?: boolean | undefined;
  /**
   * An existing MeterProvider: the stats are created on it and nothing else is built or owned; the exporter and
   * resource variables are then the provider owner's business and are not read. With the OpenTelemetry NodeSDK,
   * which has no `meterProvider` property, `metrics.getMeterProvider()` after `sdk.start()`. Leave the option out
   * (rather than set it to `undefined`, which is rejected) to build a provider from the environment.
   */
  readonly meterProvider?: MeterProvider;
  /**
   * Readers added to the provider built from the environment, next to the exporters it asks for: for example an
   * in-memory reader that a job collects at its end to print a summary of what was exported. Rejected together
   * with `meterProvider` (add them to that provider).
   */
  readonly readers?: readonly MetricReader[] | undefined;
  /**
   * `true`: never write to stderr by itself. When no diag logger is set (neither by the application nor through
   * `OTEL_LOG_LEVEL`), set-up reports a final export that did not reach its backend on stderr, so that the owner of a
   * job learns that nothing was exported; this silences it, and the stats' own misuse messages on stderr too.
   * Default: `BACKUPSTATS_QUIET`, else `false`.
   */
  readonly quiet?: boolean | undefined;
}

/** Set-up's own options, checked against the interface by their type as the core's are (instance/options.ts). */
const SETUP_OPTION_SET: Readonly<Record<Exclude<keyof StartBackupStatsOptions, keyof BackupStatsOptions>, true>> = {
  env: true,
  disabled: true,
  readers: true,
};

const START_OPTIONS: readonly string[] = [...CORE_OPTIONS, ...Object.keys(SETUP_OPTION_SET)];

/** A MetricReader of any SDK line, by what the MeterProvider calls on it. */
const isReader = (value: unknown): boolean =>
  isObject(value) &&
  typeof (value as Partial<MetricReader>).collect === 'function' &&
  typeof (value as Partial<MetricReader>).setMetricProducer === 'function';

/**
 * The options of {@link startBackupStats} with the set-up's own checked (the core's are checked with the
 * variables that may set them): a TypeError naming the option for a value it cannot take, and a diag warning for
 * an option it does not know.
 */
export function checkStartOptions(given: StartBackupStatsOptions | undefined): StartBackupStatsOptions {
  const options = optionsOf('startBackupStats', given, "{ env: process.env, naming: 'vitess' }", START_OPTIONS);
  const { env, disabled, readers } = options;
  if (env !== undefined && !isObject(env)) {
    throw notAcceptedArgument(
      ERROR_CODES.INVALID_OPTION,
      'option',
      'env',
      env,
      'an object of environment variables, such as process.env',
    );
  }
  if (disabled !== undefined && typeof disabled !== 'boolean') {
    throw notAcceptedArgument(ERROR_CODES.INVALID_OPTION, 'option', 'disabled', disabled, 'true or false');
  }
  if (readers !== undefined) {
    const accepted = 'an array of MetricReaders (from @opentelemetry/sdk-metrics or an exporter package)';
    if (!Array.isArray(readers))
      throw notAcceptedArgument(ERROR_CODES.INVALID_OPTION, 'option', 'readers', readers, accepted);
    readers.forEach((reader, i) => {
      if (!isReader(reader))
        throw notAcceptedArgument(ERROR_CODES.INVALID_OPTION, 'option', `readers[${i}]`, reader, accepted);
    });
  }
  return options;
}
