import { ERROR_CODES, listChoices, notAccepted, quote } from '../../base/errors.js';
import { type IntegerRule, integerText, isIntegerIn } from '../../base/integer-rule.js';

/** Environment variables as {@link startBackupStats} reads them (`process.env` unless the caller passes its own). */
export type Env = Readonly<Record<string, string | undefined>>;

// The OpenTelemetry helpers in @opentelemetry/core (getStringFromEnv, getNumberFromEnv, getBooleanFromEnv) read
// only `process.env` and turn a bad value into a diag warning plus the default. Set-up must fail loudly on a bad
// value and must honour a caller's `env`, so these readers keep the helpers' rule for unset values (empty or
// only whitespace means unset) and throw on the rest.

/** The variable's value as written, quoted for a message. */
export function shown(env: Env, name: string): string {
  return quote(env[name] ?? '');
}

/** The trimmed value, or undefined when the variable is unset, empty or only whitespace. */
export function readString(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined) return undefined;
  const trimmed = raw.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** `true` / `false` in any case, or undefined when unset. */
export function readBoolean(env: Env, name: string): boolean | undefined {
  const value = readString(env, name);
  if (value === undefined) return undefined;
  const lower = value.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  throw notAccepted(ERROR_CODES.INVALID_ENV, name, shown(env, name), '"true" or "false" (any case)');
}

/** A decimal integer, NaN for any other text, so that the rule that checks it rejects it. */
export function parseInteger(text: string): number {
  return /^\d+$/.test(text) ? Number(text) : Number.NaN;
}

/** A decimal integer within the rule's bounds, or undefined when unset. */
export function readInteger(env: Env, name: string, rule: IntegerRule): number | undefined {
  const value = readString(env, name);
  if (value === undefined) return undefined;
  const parsed = parseInteger(value);
  if (!isIntegerIn(parsed, rule)) throw notAccepted(ERROR_CODES.INVALID_ENV, name, shown(env, name), integerText(rule));
  return parsed;
}

/** One of `choices`, compared in lower case as OpenTelemetry's enum values are, or undefined when unset. */
export function readChoice<T extends string>(env: Env, name: string, choices: readonly T[]): T | undefined {
  const value = readString(env, name);
  if (value === undefined) return undefined;
  const lower = value.toLowerCase();
  const found = choices.find((choice) => choice === lower);
  if (found === undefined) throw notAccepted(ERROR_CODES.INVALID_ENV, name, shown(env, name), listChoices(choices));
  return found;
}
