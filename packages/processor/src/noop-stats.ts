import type { BackupStats, Stats } from './stats.js';

const noop = (): void => {};

/** Stats that record nothing, for code paths where metrics are disabled. `scope()` returns itself. */
export const noopStats: Stats = Object.freeze({
  scope: (): Stats => noopStats,
  timedIncrement: noop,
  timedIncrementBytes: noop,
});

/** Backup and restore stats that record nothing, with `flush()` and `shutdown()` that do nothing. */
export function createNoopBackupStats(): BackupStats {
  return Object.freeze({
    backup: noopStats,
    restore: noopStats,
    flush: noop,
    shutdown: (): Promise<void> => Promise.resolve(),
  });
}
