import { constants } from 'node:os';
import { diag } from '@opentelemetry/api';

/** Anything with an asynchronous `shutdown()`, such as the stats {@link startBackupStats} returns. */
export interface ShutdownTarget {
  shutdown(): Promise<void>;
}

/** Options of {@link shutdownOnExit}. */
export interface ShutdownOnExitOptions {
  /** The signals that shut down and then end the process. Default `['SIGTERM', 'SIGINT']`. */
  readonly signals?: readonly NodeJS.Signals[] | undefined;
}

const UNCATCHABLE = new Set(['SIGKILL', 'SIGSTOP']);

/**
 * Makes the end of the process run `target.shutdown()` once (flush and final export) before it ends:
 *
 * - a normal end of the event loop (`beforeExit`): shutdown, then the process ends with its usual exit code;
 * - SIGTERM or SIGINT: shutdown, then, if no other listener is registered for that signal, the signal is raised
 *   again so that the process dies by it (a shell sees 128 + the signal's number). If the program has its own
 *   listeners, they run as usual and the process is not ended here: they decide.
 * - the same or another of these signals during the shutdown ends the process at once by that signal (unless the
 *   program has its own listeners for it).
 *
 * `process.exit()` skips `beforeExit`, so a program that calls it loses what was not exported: call
 * `await stats.shutdown()` first, or {@link exitAfterShutdown}. The shutdown takes at most about
 * `OTEL_METRIC_EXPORT_TIMEOUT` when an exporter's receiver does not answer.
 *
 * @returns a function that removes the listeners again.
 * @throws TypeError when a signal cannot be caught or does not exist.
 */
export function shutdownOnExit(target: ShutdownTarget, options: ShutdownOnExitOptions = {}): () => void {
  const signals = [...new Set(options.signals ?? (['SIGTERM', 'SIGINT'] as const))];
  for (const signal of signals) {
    if (!(signal in constants.signals) || UNCATCHABLE.has(signal)) {
      throw new TypeError(
        `backupstats: shutdownOnExit signal ${JSON.stringify(signal)} cannot be caught; accepted: signal names such as "SIGTERM", "SIGINT" or "SIGHUP" (not SIGKILL or SIGSTOP)`,
      );
    }
  }

  let closing: Promise<void> | undefined;
  const shutdownOnce = (): Promise<void> => {
    if (closing === undefined) {
      // An export can wait on handles that do not hold the event loop open (unref'd sockets and servers): this
      // timer keeps the process alive until the shutdown has finished.
      const keepAlive = setInterval(() => {}, 1 << 30);
      closing = target
        .shutdown()
        .catch((error: unknown) => diag.error('backupstats: shutdown at exit failed', error))
        .finally(() => clearInterval(keepAlive));
    }
    return closing;
  };

  // Every listener but ours belongs to the program (or another library) and keeps the signal from ending it here.
  const othersListen = (signal: NodeJS.Signals): boolean => process.listeners(signal).some((l) => l !== onSignal);

  const onSignal = (signal: NodeJS.Signals): void => {
    if (closing !== undefined) {
      if (!othersListen(signal)) raise(signal);
      return;
    }
    void shutdownOnce().then(() => {
      if (!othersListen(signal)) raise(signal);
    });
  };

  const onBeforeExit = (): void => {
    // beforeExit comes again once the shutdown's own work is done; then there is nothing left to do.
    if (closing !== undefined) return;
    void shutdownOnce().then(uninstall);
  };

  const uninstall = (): void => {
    for (const signal of signals) process.removeListener(signal, onSignal);
    process.removeListener('beforeExit', onBeforeExit);
  };

  /** Ends the process by `signal` as if nobody had caught it. */
  const raise = (signal: NodeJS.Signals): void => {
    uninstall();
    // With no listener left, Node restores the default action, so the process dies by the signal.
    process.kill(process.pid, signal);
    // Should the signal be ignored (inherited SIG_IGN), end with the status a shell would show for it.
    setTimeout(() => process.exit(128 + (constants.signals[signal] ?? 0)), 1000);
  };

  for (const signal of signals) process.on(signal, onSignal);
  process.on('beforeExit', onBeforeExit);
  return uninstall;
}

/**
 * Shuts `target` down (flush and final export), then calls `process.exit(code)`. Use it where a program would
 * call `process.exit()` directly, which skips `beforeExit` and so the shutdown. A failed shutdown is reported
 * through the OpenTelemetry diag logger and does not change the exit code.
 *
 * @param code the exit code; default `process.exitCode`, else 0.
 */
export async function exitAfterShutdown(target: ShutdownTarget, code?: number): Promise<never> {
  try {
    await target.shutdown();
  } catch (error) {
    diag.error('backupstats: shutdown before exit failed', error);
  }
  return process.exit(code ?? process.exitCode ?? 0);
}
