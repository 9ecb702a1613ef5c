// @ts-nocheck
import type { Run } from '../run.js';
import type { BackupStats, Stats } from '../stats.js';
import type { WorkerLink, WorkerLinkOptions } from '../worker/link-types.js';
import { disabledLink, workerLinkOptions } from '../worker/worker-link.js';

/** Does nothing: what no-op stats are made of, and a callback's place-holder. */
export function noop(): void {}

/** A run that records nothing: what no-op stats start, and stats already shut down. */
export const noopRun: Run = Object.freeze({ succeed: noop, fail: noop });

/** Stats that record nothing, for code paths where metrics are disabled. `scope()` returns itself. */
export const noopStats: Stats = Object.freeze({
  scope: (): Stats => noopStats,
  timedIncrement: noop,
  timedIncrementBytes: noop,
  startRun: (): Run => noopRun,
});

/** Backup and restore stats that record nothing, with `flush()` and `shutdown()` that do nothing. */
export function createNoopBackupStats(): BackupStats {
  return Object.freeze({
    backup: noopStats,
    restore: noopStats,
    flush: noop,
    shutdown: (): Promise<void> => Promise.resolve(),
    // A link all the same, so that code passing it to workers runs unchanged: their stats record nothing too.
    workerLink: (options?: WorkerLinkOptions): WorkerLink => {
      workerLinkOptions(options);
      return disabledLink();
    },
  });
}
