import { describeValue, ERROR_CODES, type ErrorCode, notAccepted, notAcceptedArgument } from './errors.js';
import { isObject } from './values.js';

// The checks every public function makes of its arguments before it does anything, so that a wrong argument is a
// TypeError at the call (naming the function and what it accepts) rather than a crash later, inside a stream's
// consumer or after the work was done and its result lost.

/** The methods every Stats has (api/stats.ts): what {@link requireStats} looks for. */
const STATS_METHODS = ['scope', 'timedIncrement', 'timedIncrementBytes', 'startRun'] as const;

/**
 * Throws unless `value` records like a Stats: the handles of the stats, their scopes, noopStats, a test double.
 * `code` says whether `argument` is an argument or an option.
 */
export function requireStats(code: ErrorCode, fn: string, value: unknown, argument = 'stats'): void {
  const stats = value as Record<string, unknown> | null | undefined;
  if (typeof stats === 'object' && stats !== null && STATS_METHODS.every((name) => typeof stats[name] === 'function')) {
    return;
  }
  throw notAcceptedArgument(code, fn, argument, value, 'a Stats, such as backupStats.backup or one of its scopes');
}

/** Throws unless `value` is a function; `code` says whether `argument` is an argument or an option. */
export function requireFunction(
  code: ErrorCode,
  fn: string,
  argument: string,
  value: unknown,
): asserts value is () => unknown {
  if (typeof value !== 'function') throw notAcceptedArgument(code, fn, argument, value, 'a function');
}

/** `value` as an options object: `{}` when left out; throws for anything but an object. */
export function optionsOf<T extends object>(fn: string, value: T | undefined, example: string): T {
  if (value === undefined) return {} as T;
  if (isObject(value)) return value;
  throw notAccepted(
    ERROR_CODES.INVALID_OPTION,
    `${fn} options`,
    describeValue(value),
    `an object such as ${example}, or nothing`,
  );
}
