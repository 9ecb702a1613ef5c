import type { Run } from '../api/run.js';
import type { RunFailureReason } from '../api/run-failure.js';
import type { Stats } from '../api/stats.js';
import { isAmount } from '../base/amount.js';
import { optionsOf, requireFunction, requireStats } from '../base/arguments.js';
import { ERROR_CODES, notAcceptedArgument } from '../base/errors.js';
import { expectedProgressOf } from '../series/run-options.js';

/** Options of {@link trackRun}. */
export interface TrackRunOptions<T> {
  /**
   * The bytes the run backed up or restored: a number, or a function that reads them from the result. A function
   * that throws makes the run a failure (with the reason `reason` gives its error) and trackRun rejects with it.
   */
  readonly bytes?: number | ((result: T) => number) | undefined;
  /**
   * The bytes the run stored (see {@link backupstats!RunEndDetails.storedBytes}): a number, or a function that reads
   * them from the result, which makes the run a failure if it throws, as `bytes` does.
   */
  readonly storedBytes?: number | ((result: T) => number) | undefined;
  /**
   * Tells from the result whether the run was done only in part: `true` or one of {@link RunFailure} (what was left
   * out) ends it with {@link Run.partial}, anything else with a success. If it throws, the run fails and trackRun
   * rejects with its error.
   */
  readonly partial?: ((result: T) => boolean | RunFailureReason | undefined) | undefined;
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
 * Runs `work(run)` as one run started from `stats` (see {@link Stats.startRun}; `run` names its phases and counts
 * its warnings, {@link Run.phase}, {@link Run.warn}): resolves to its result after recording a success with its
 * bytes (or a partial end, as `options.partial` says), or rejects with its error (a synchronous throw included, or one
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
    'storedBytes',
    'partial',
    'reason',
    'expectedBytes',
    'progressOperation',
  ]);
  if (given.reason !== undefined)
    requireFunction(ERROR_CODES.INVALID_OPTION, 'trackRun', 'option reason', given.reason);
  if (given.partial !== undefined)
    requireFunction(ERROR_CODES.INVALID_OPTION, 'trackRun', 'option partial', given.partial);
  const stored = given.storedBytes;
  if (stored !== undefined && typeof stored !== 'function' && !isAmount(stored))
    throw notAcceptedArgument(
      ERROR_CODES.INVALID_OPTION,
      'trackRun',
      'option storedBytes',
      stored,
      'a number from 0 up, or a function of the result',
    );
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
  let moved: number | undefined;
  let storedBytes: number | undefined;
  let partial: boolean | RunFailureReason | undefined;
  try {
    moved = fromResult(options.bytes, result);
    storedBytes = fromResult(options.storedBytes, result);
    partial = options.partial?.(result);
  } catch (error) {
    // trackRun rejects with it, so the job fails: the run must fail too, not record a success.
    run.fail(reasonOf(options, error));
    throw error;
  }
  const details = storedBytes === undefined ? undefined : { storedBytes };
  if (partial === true) run.partial(undefined, moved, details);
  else if (typeof partial === 'string') run.partial(partial, moved, details);
  else run.succeed(moved, details);
  return result;
}

/** A number option, or what its function reads from the result. */
function fromResult<T>(option: number | ((result: T) => number) | undefined, result: T): number | undefined {
  return typeof option === 'function' ? option(result) : option;
}

function reasonOf<T>(options: TrackRunOptions<T>, error: unknown): RunFailureReason | undefined {
  try {
    // Stryker disable next-line OptionalChaining: without reason the call throws, and the catch returns undefined
    return options.reason?.(error);
  } catch /* Stryker disable next-line BlockStatement: falling off the end returns undefined too */ {
    return undefined;
  }
}
