import type { Stats } from '../api/stats.js';
import { optionsOf, requireFunction, requireStats } from '../base/arguments.js';
import { ERROR_CODES, notAcceptedArgument } from '../base/errors.js';

/** Options of {@link timeSync} and {@link timeAsync}. */
export interface TimedOptions<T> {
  /**
   * Record the operation even when it throws or rejects, as Vitess does for `Close`. Default `false`: a
   * failed operation records nothing.
   */
  readonly recordFailures?: boolean | undefined;
  /**
   * Bytes the operation moved (for example the size of one uploaded part), or a function that reads them
   * from the result. Recorded with the duration. A failure recorded through `recordFailures` records the
   * number given here, or 0 when it is a function.
   */
  readonly bytes?: number | ((result: T) => number) | undefined;
}

/**
 * Runs `operation` and records it on `stats` as one operation with its duration (two clock reads), and its
 * bytes when `options.bytes` says. Returns what it returns; rethrows what it throws, recording nothing unless
 * `options.recordFailures`. For an operation that returns a promise, use {@link timeAsync}.
 *
 * @throws TypeError before `operation` runs, when an argument is not what it accepts or an option is unknown.
 */
export function timeSync<T>(stats: Stats, operation: () => T, options?: TimedOptions<T>): T {
  checkTimed('timeSync', stats, operation, options);
  const start = performance.now();
  let result: T;
  try {
    result = operation();
  } catch (error) {
    if (options?.recordFailures === true) recordFailure(stats, options, performance.now() - start);
    throw error;
  }
  record(stats, options, result, performance.now() - start);
  return result;
}

/**
 * Awaits `operation` and records it on `stats` as one operation with its duration, up to the settling of
 * its promise, and its bytes when `options.bytes` says. Resolves to its result; rejects with its error (a
 * synchronous throw included), recording nothing unless `options.recordFailures`.
 *
 * @throws TypeError at the call, before `operation` runs, when an argument is not what it accepts.
 */
export function timeAsync<T>(stats: Stats, operation: () => PromiseLike<T> | T, options?: TimedOptions<T>): Promise<T> {
  checkTimed('timeAsync', stats, operation, options);
  return timedAwait(stats, operation, options);
}

async function timedAwait<T>(
  stats: Stats,
  operation: () => PromiseLike<T> | T,
  options: TimedOptions<T> | undefined,
): Promise<T> {
  const start = performance.now();
  let result: T;
  try {
    result = await operation();
  } catch (error) {
    if (options?.recordFailures === true) recordFailure(stats, options, performance.now() - start);
    throw error;
  }
  record(stats, options, result, performance.now() - start);
  return result;
}

const TIMED_OPTIONS: readonly string[] = ['recordFailures', 'bytes'];

/** The arguments of {@link timeSync} and {@link timeAsync}, checked before the operation runs. */
function checkTimed<T>(fn: string, stats: unknown, operation: unknown, options: TimedOptions<T> | undefined): void {
  requireStats(ERROR_CODES.INVALID_ARGUMENT, fn, stats);
  requireFunction(ERROR_CODES.INVALID_ARGUMENT, fn, 'operation', operation);
  const given = optionsOf(fn, options, '{ bytes: 4096 }', TIMED_OPTIONS);
  const bytes = given.bytes;
  if (bytes !== undefined && typeof bytes !== 'number' && typeof bytes !== 'function') {
    throw notAcceptedArgument(
      ERROR_CODES.INVALID_OPTION,
      fn,
      'option bytes',
      bytes,
      'a number, or a function that reads the bytes from the result',
    );
  }
}

function record<T>(stats: Stats, options: TimedOptions<T> | undefined, result: T, durationMillis: number): void {
  const bytes = options?.bytes;
  if (bytes === undefined) stats.timedIncrement(durationMillis);
  else stats.timedIncrementBytes(typeof bytes === 'number' ? bytes : bytes(result), durationMillis);
}

function recordFailure<T>(stats: Stats, options: TimedOptions<T>, durationMillis: number): void {
  const bytes = options.bytes;
  if (typeof bytes === 'number') stats.timedIncrementBytes(bytes, durationMillis);
  else stats.timedIncrement(durationMillis);
}
