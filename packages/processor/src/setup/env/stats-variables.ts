import {
  type BackupStatsOptions,
  CORE_OPTIONS,
  type ValueSource,
  type VariableOption,
} from '../../instance/options.js';
import { type Env, parseInteger, readBoolean, readString, shown } from './env.js';

/** Whether set-up is turned off: the `disabled` option, else `BACKUPSTATS_DISABLED`, else `OTEL_SDK_DISABLED`. */
export function readDisabled(env: Env, option: boolean | undefined): boolean {
  if (option !== undefined) return option;
  // Both are read so that a bad value in either is reported even when the other one decides.
  const own = readBoolean(env, 'BACKUPSTATS_DISABLED');
  const sdk = readBoolean(env, 'OTEL_SDK_DISABLED');
  return own ?? sdk ?? false;
}

/** The core's options, from code or else from the `BACKUPSTATS_*` variables, and which variable set which. */
export interface StatsVariables {
  /** Unchecked: `resolveOptions` checks them. */
  readonly options: BackupStatsOptions;
  /** For `resolveOptions`, so that a value it rejects is blamed on its variable, shown as written. */
  readonly sources: Partial<Record<VariableOption, ValueSource>>;
}

/** An option's variable and how its text becomes the option's value (`raw` is the text untrimmed). */
interface Variable {
  readonly variable: string;
  parse(text: string, raw: string): unknown;
  /** What the variable accepts, when the option's own words would not fit its text. */
  readonly accepted?: string;
}

/** Each option's variable, keyed by the option: an option of {@link VariableOption} without one fails to compile. */
const VARIABLE_OF: Readonly<Record<VariableOption, Variable>> = {
  flushIntervalMillis: { variable: 'BACKUPSTATS_FLUSH_INTERVAL_MS', parse: parseInteger },
  // Compared in lower case, as OpenTelemetry's enum values are.
  naming: { variable: 'BACKUPSTATS_NAMING', parse: (text) => text.toLowerCase() },
  // Kept verbatim: a prefix is text in front of names, and the core checks the names it makes.
  metricPrefix: { variable: 'BACKUPSTATS_METRIC_PREFIX', parse: (_text, raw) => raw },
  maxScopes: { variable: 'BACKUPSTATS_MAX_SCOPES', parse: parseInteger },
  // true / false in any case; any other text is kept, for resolveOptions to refuse naming the variable.
  histograms: { variable: 'BACKUPSTATS_HISTOGRAMS', parse: parseBoolean, accepted: '"true" or "false" (any case)' },
  // Comma-separated seconds; a piece that is not a decimal number becomes NaN, which resolveOptions refuses.
  histogramBoundaries: {
    variable: 'BACKUPSTATS_HISTOGRAM_BOUNDARIES',
    parse: (text) =>
      text.split(',').map((piece) => (/^\s*\d+(\.\d+)?([eE][-+]?\d+)?\s*$/.test(piece) ? Number(piece) : Number.NaN)),
  },
};

const VARIABLES = (Object.keys(VARIABLE_OF) as VariableOption[]).map((option) => ({ option, ...VARIABLE_OF[option] }));

function parseBoolean(text: string): unknown {
  const lower = text.toLowerCase();
  return lower === 'true' ? true : lower === 'false' ? false : text;
}

/**
 * The core's options given in code, with the `BACKUPSTATS_*` variables read for those left undefined. It only
 * turns the variables' text into values; the core's `resolveOptions` checks all of them once.
 */
export function readStatsVariables(env: Env, given: BackupStatsOptions): StatsVariables {
  const options: Record<string, unknown> = {};
  for (const option of CORE_OPTIONS) options[option] = given[option];
  const sources: Partial<Record<VariableOption, ValueSource>> = {};
  for (const { option, variable, parse, accepted } of VARIABLES) {
    const text = readString(env, variable);
    if (given[option] !== undefined || text === undefined) continue;
    options[option] = parse(text, env[variable] ?? '');
    sources[option] = { subject: variable, shown: shown(env, variable), accepted };
  }
  return { options: options as BackupStatsOptions, sources };
}
