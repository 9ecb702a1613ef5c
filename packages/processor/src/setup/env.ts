/** Environment variables as {@link startBackupStats} reads them (`process.env` unless the caller passes its own). */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * The error for a variable with a value that is not accepted. `shown` is how the value appears in the message:
 * quoted text, or a placeholder for secrets.
 */
export function envError(variable: string, shown: string, accepted: string, detail?: string): TypeError {
  const why = detail === undefined ? '' : ` (${detail})`;
  return new TypeError(`backupstats: ${variable} is ${shown}${why}; accepted: ${accepted}`);
}

/** The value quoted for an error message. */
export function quote(value: string): string {
  return JSON.stringify(value);
}

// The OpenTelemetry helpers in @opentelemetry/core (getStringFromEnv, getNumberFromEnv, getBooleanFromEnv) read
// only `process.env` and turn a bad value into a diag warning plus the default. Set-up must fail loudly on a bad
// value and must honour a caller's `env`, so these readers keep the helpers' rule for unset values (empty or
// only whitespace means unset) and throw on the rest.

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
  throw envError(name, quote(env[name] ?? ''), '"true" or "false" (any case)');
}

/** A decimal integer within [min, max], or undefined when unset. */
export function readInteger(env: Env, name: string, min: number, max: number, unit: string): number | undefined {
  const value = readString(env, name);
  if (value === undefined) return undefined;
  const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
    throw envError(name, quote(env[name] ?? ''), `an integer from ${min} to ${max}${unit}`);
  }
  return parsed;
}

/** One of `choices`, compared in lower case as OpenTelemetry's enum values are, or undefined when unset. */
export function readChoice<T extends string>(env: Env, name: string, choices: readonly T[]): T | undefined {
  const value = readString(env, name);
  if (value === undefined) return undefined;
  const lower = value.toLowerCase();
  const found = choices.find((choice) => choice === lower);
  if (found === undefined) throw envError(name, quote(env[name] ?? ''), listChoices(choices));
  return found;
}

/** `"a", "b" or "c"`. */
export function listChoices(choices: readonly string[]): string {
  const quoted = choices.map(quote);
  const last = quoted.pop();
  return quoted.length === 0 ? String(last) : `${quoted.join(', ')} or ${last}`;
}
