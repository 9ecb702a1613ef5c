import type { Stats } from '../stats.js';

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
 */
export function timeSync<T>(stats: Stats, operation: () => T, options?: TimedOptions<T>): T {
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
 */
export async function timeAsync<T>(
  stats: Stats,
  operation: () => PromiseLike<T> | T,
  options?: TimedOptions<T>,
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
