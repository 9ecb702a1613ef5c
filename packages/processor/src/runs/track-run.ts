import type { Run } from '../api/run.js';
import type { RunFailureReason } from '../api/run-failure.js';
import type { Stats } from '../api/stats.js';
import { optionsOf, requireFunction, requireStats } from '../base/arguments.js';
import { ERROR_CODES } from '../base/errors.js';
import { expectedProgressOf } from '../series/run-options.js';

/** Options of {@link trackRun}. */
export interface TrackRunOptions<T> {
  /**
   * The bytes the run backed up or restored: a number, or a function that reads them from the result. A function
   * that throws makes the run a failure (with the reason `reason` gives its error) and trackRun rejects with it.
   */
  readonly bytes?: number | ((result: T) => number) | undefined;
  /**
   * Tells why the run failed from what it threw, as one of {@link RunFailure}. Left out, or returning
   * `undefined`, a failure is {@link RunFailure.Other}; if it throws, too.
   */
  readonly reason?: ((error: unknown) => RunFailureReason | undefined) | undefined;
  /** The bytes the run is expected to move, so that it exports its progress: as in {@link Stats.startRun}. */
  readonly expectedBytes?: number | undefined;
  /** The operation whose bytes are the run's progress (default `Source:Read`): as in {@link Stats.startRun}. */
  readonly progressOperation?: string | undefined;
}

/**
 * Runs `work(run)` as one backup or restore run started from `stats` (see {@link Stats.startRun}; `run` names its
 * phases, {@link Run.phase}): resolves to its
 * result after recording a success with its bytes, or rejects with its error (a synchronous throw included, or one
 * thrown by `options.bytes`) after recording a failure with the reason `options.reason` gives.
 *
 * @throws TypeError at the call, before `work` runs, when an argument is not what it accepts.
 */
export function trackRun<T>(
  stats: Stats,
  work: (run: Run) => PromiseLike<T> | T,
  options?: TrackRunOptions<T>,
): Promise<T> {
  requireStats(ERROR_CODES.INVALID_ARGUMENT, 'trackRun', stats);
  requireFunction(ERROR_CODES.INVALID_ARGUMENT, 'trackRun', 'work', work);
  const given = optionsOf('trackRun', options, '{ bytes: (result) => result.bytes }', [
    'bytes',
    'reason',
    'expectedBytes',
    'progressOperation',
  ]);
  if (given.reason !== undefined)
    requireFunction(ERROR_CODES.INVALID_OPTION, 'trackRun', 'option reason', given.reason);
  // Checked here as well, so that a wrong size is an error at the call, whatever stats do with it.
  expectedProgressOf('trackRun', { expectedBytes: given.expectedBytes, progressOperation: given.progressOperation });
  return tracked(stats, work, given);
}

async function tracked<T>(
  stats: Stats,
  work: (run: Run) => PromiseLike<T> | T,
  options: TrackRunOptions<T>,
): Promise<T> {
  const run =
    // Stryker disable next-line ConditionalExpression,EqualityOperator: options checked; startRun() is the same run
    options.expectedBytes === undefined && options.progressOperation === undefined
      ? stats.startRun()
      : stats.startRun({ expectedBytes: options.expectedBytes, progressOperation: options.progressOperation });
  let result: T;
  try {
    result = await work(run);
  } catch (error) {
    run.fail(reasonOf(options, error));
    throw error;
  }
  const bytes = options.bytes;
  let moved: number | undefined;
  try {
    moved = typeof bytes === 'function' ? bytes(result) : bytes;
  } catch (error) {
    // trackRun rejects with it, so the job fails: the run must fail too, not record a success.
    run.fail(reasonOf(options, error));
    throw error;
  }
  run.succeed(moved);
  return result;
}

function reasonOf<T>(options: TrackRunOptions<T>, error: unknown): RunFailureReason | undefined {
  try {
    // Stryker disable next-line OptionalChaining: without reason the call throws, and the catch returns undefined
    return options.reason?.(error);
  } catch /* Stryker disable next-line BlockStatement: falling off the end returns undefined too */ {
    return undefined;
  }
}
