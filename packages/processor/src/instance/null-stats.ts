import type { WorkerLink, WorkerLinkOptions } from '../api/link-types.js';
import type { Run, RunOptions } from '../api/run.js';
import type { BackupStats, Stats } from '../api/stats.js';
import { noop, noopRun } from '../base/noop.js';
import { disabledLink, workerLinkOptions } from '../link/worker-link.js';
import { expectedProgressOf } from '../series/run-options.js';

/**
 * The null object: stats that record nothing, for code paths where metrics are disabled. It is both a
 * {@link Stats} (`scope()` returns itself) and a {@link BackupStats} (its families are itself,
 * `flush()` and `shutdown()` do nothing), so one object serves wherever either is expected.
 */
export const noopStats: Stats & BackupStats = Object.freeze({
  scope: (): Stats => noopStats,
  timedIncrement: noop,
  timedIncrementBytes: noop,
  startRun: (options?: RunOptions): Run => {
    expectedProgressOf('startRun', options);
    return noopRun;
  },
  get backup(): Stats {
    return noopStats;
  },
  get restore(): Stats {
    return noopStats;
  },
  get verify(): Stats {
    return noopStats;
  },
  get prune(): Stats {
    return noopStats;
  },
  flush: noop,
  shutdown: (): Promise<void> => Promise.resolve(),
  // A link all the same, so that code passing it to workers runs unchanged: their stats record nothing too.
  workerLink: (options?: WorkerLinkOptions): WorkerLink => {
    workerLinkOptions(options);
    return disabledLink();
  },
});
