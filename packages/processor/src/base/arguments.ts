import {
  describeValue,
  ERROR_CODES,
  type ErrorCode,
  listChoices,
  notAccepted,
  notAcceptedArgument,
  quote,
} from './errors.js';
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

/**
 * `value` as an options object: `{}` when left out; throws for anything but an object, and for an option that
 * `known` does not hold (see {@link refuseUnknownOptions}).
 */
export function optionsOf<T extends object>(
  fn: string,
  value: T | undefined,
  example: string,
  known: readonly string[],
): T {
  if (value === undefined) return {} as T;
  if (!isObject(value)) {
    throw notAccepted(
      ERROR_CODES.INVALID_OPTION,
      `${fn} options`,
      describeValue(value),
      `an object such as ${example}, or nothing`,
    );
  }
  refuseUnknownOptions(fn, value, known);
  return value;
}

/**
 * Throws for the first option of `given` that `known` does not hold, naming the closest known one: a misspelt
 * option would otherwise do nothing, silently.
 *
 * @throws TypeError `BACKUPSTATS_INVALID_OPTION`: `<fn> option "<name>" is not an option (did you mean "<known>"?)`.
 */
export function refuseUnknownOptions(fn: string, given: object, known: readonly string[]): void {
  for (const name of Object.keys(given)) {
    if (known.includes(name)) continue;
    const closest = closestOf(name, known);
    throw notAccepted(
      ERROR_CODES.INVALID_OPTION,
      `${fn} option ${quote(name.slice(0, 64))}`,
      'not an option',
      listChoices(known),
      closest === undefined ? undefined : `did you mean ${quote(closest)}?`,
    );
  }
}

/** The name of `known` fewest edits away from `name`, ignoring case (the first of equals); undefined for none. */
function closestOf(name: string, known: readonly string[]): string | undefined {
  const typed = name.slice(0, 64).toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const distance = editDistance(typed, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance: the fewest insertions, deletions and substitutions that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] as number;
}
