import { constants } from 'node:os';
import { optionsOf } from '../../base/arguments.js';
import { ERROR_CODES, type ErrorCode, notAccepted, notAcceptedArgument, quote, showValue } from '../../base/errors.js';
import { integerText, isIntegerIn, TIMER_MILLIS } from '../../base/integer-rule.js';
import { shutdownFailed, shutdownLate } from '../../diagnostics/messages.js';
import { DEFAULT_SHUTDOWN_TIMEOUT_MILLIS } from '../env/defaults.js';
import { exitCoordinator, LATE, within } from './exit-coordinator.js';

/** Anything with an asynchronous `shutdown()`, such as the stats {@link startBackupStats} returns. */
export interface ShutdownTarget {
  /** Flushes and exports what was recorded, then releases what the target holds. */
  shutdown(): Promise<void>;
  /**
   * The longest its shutdown may take; after that the process ends without waiting any more. The stats of
   * {@link startBackupStats} set it to `OTEL_METRIC_EXPORT_TIMEOUT` plus one second.
   */
  readonly shutdownTimeoutMillis?: number | undefined;
}

/** Options of {@link shutdownOnExit}. */
export interface ShutdownOnExitOptions {
  /** The signals that shut down and then end the process. Default `['SIGTERM', 'SIGINT']`; `[]` for none. */
  readonly signals?: readonly NodeJS.Signals[] | undefined;
  /** How long the shutdown may take. Default: the target's `shutdownTimeoutMillis`, else 31 000 ms. */
  readonly timeoutMillis?: number | undefined;
}

const UNCATCHABLE = new Set(['SIGKILL', 'SIGSTOP']);

/**
 * Makes the end of the process run `target.shutdown()` once (flush and final export) before it ends, within
 * its deadline (`timeoutMillis`):
 *
 * - a normal end of the event loop (`beforeExit`): shutdown, then the process ends with its usual exit code (if
 *   the shutdown reached its deadline, `process.exit` with that code ends it, whatever was left behind);
 * - SIGTERM or SIGINT: shutdown, then the process ends by the signal, raised again (a shell sees 128 + its
 *   number), unless other listeners of the signal (the program's own, another library) end it first; they have
 *   about a second once the shutdown is done (or its deadline passed).
 * - another of these signals after the first ends the process at once (Ctrl-C twice).
 *
 * Every registration in the process, from any copy of backupstats, shares one listener per signal: two stats
 * with their own `shutdownOnExit` both shut down on one signal, and never wait for each other. A program whose
 * own listener needs longer than that passes `signals: []` and awaits `stats.shutdown()` in it.
 *
 * `process.exit()` skips `beforeExit`, so a program that calls it loses what was not exported: call
 * `await stats.shutdown()` first, or {@link exitAfterShutdown}.
 *
 * @returns a function that removes the registration again.
 * @throws TypeError when a signal cannot be caught or does not exist, or the timeout is not a positive integer.
 */
export function shutdownOnExit(target: ShutdownTarget, given?: ShutdownOnExitOptions): () => void {
  requireTarget('shutdownOnExit', target);
  const options = optionsOf('shutdownOnExit', given, "{ signals: ['SIGTERM'] }", ['signals', 'timeoutMillis']);
  if (options.signals !== undefined && !Array.isArray(options.signals)) {
    throw notAcceptedArgument(
      ERROR_CODES.INVALID_OPTION,
      'shutdownOnExit option',
      'signals',
      options.signals,
      'an array of signal names such as ["SIGTERM", "SIGINT"], or [] for none',
    );
  }
  const signals = new Set(options.signals ?? (['SIGTERM', 'SIGINT'] as const));
  for (const signal of signals) {
    if (!(signal in constants.signals) || UNCATCHABLE.has(signal)) {
      throw notAccepted(
        ERROR_CODES.INVALID_OPTION,
        'shutdownOnExit signal',
        quote(signal),
        'signal names such as "SIGTERM", "SIGINT" or "SIGHUP" (not SIGKILL or SIGSTOP)',
        'it cannot be caught',
      );
    }
  }
  const timeoutMillis = checkTimeout(
    options.timeoutMillis === undefined ? ERROR_CODES.INVALID_ARGUMENT : ERROR_CODES.INVALID_OPTION,
    'shutdownOnExit',
    options.timeoutMillis ?? target.shutdownTimeoutMillis ?? DEFAULT_SHUTDOWN_TIMEOUT_MILLIS,
  );
  let closing: Promise<void> | undefined;
  const shutdown = (): Promise<void> => {
    closing ??= target.shutdown();
    return closing;
  };
  return exitCoordinator().register({ shutdown, timeoutMillis, signals });
}

/**
 * Shuts `target` down (flush and final export) within its deadline (`target.shutdownTimeoutMillis`, else
 * 31 000 ms), then calls `process.exit(code)`. Use it where a program would call `process.exit()` directly,
 * which skips `beforeExit` and so the shutdown. A failed or late shutdown is reported through the OpenTelemetry
 * diag logger and does not change the exit code.
 *
 * @param code the exit code; default `process.exitCode`, else 0.
 */
export async function exitAfterShutdown(target: ShutdownTarget, code?: number): Promise<never> {
  requireTarget('exitAfterShutdown', target);
  if (code !== undefined && !isIntegerIn(code, EXIT_CODE)) {
    throw notAcceptedArgument(
      ERROR_CODES.INVALID_ARGUMENT,
      'exitAfterShutdown',
      'code',
      code,
      'an integer from 0 to 255 (the exit code), or nothing for process.exitCode',
    );
  }
  const timeoutMillis = checkTimeout(
    ERROR_CODES.INVALID_ARGUMENT,
    'exitAfterShutdown',
    target.shutdownTimeoutMillis ?? DEFAULT_SHUTDOWN_TIMEOUT_MILLIS,
  );
  try {
    if ((await within(target.shutdown(), timeoutMillis)) === LATE) {
      shutdownLate('before exit', timeoutMillis);
    }
  } catch (error) {
    shutdownFailed('before exit', error);
  }
  return process.exit(code ?? process.exitCode ?? 0);
}

const EXIT_CODE = { min: 0, max: 255, note: 'the exit code' };

function requireTarget(fn: string, target: unknown): void {
  if (typeof (target as Partial<ShutdownTarget> | null | undefined)?.shutdown === 'function') return;
  throw notAcceptedArgument(
    ERROR_CODES.INVALID_ARGUMENT,
    fn,
    'target',
    target,
    'something with a shutdown() that returns a promise, such as the stats of startBackupStats()',
  );
}

/** `value` as a timeout; `code` says whether it came from an option or from the target, an argument. */
function checkTimeout(code: ErrorCode, where: string, value: number): number {
  if (isIntegerIn(value, TIMER_MILLIS)) return value;
  throw notAccepted(code, `${where} timeoutMillis`, showValue(value), integerText(TIMER_MILLIS));
}
