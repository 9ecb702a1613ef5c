import type { Stats } from 'backupstats';
import type { StageTotals } from './stages.js';

/** The labels every stage of the run starts from: the run's own, but its operation. */
export interface BaseLabels {
  readonly component: string;
  readonly implementation: string;
}

interface Taken {
  readonly handle: Stats;
  count: number;
  bytes: number;
  busyMs: number;
}

/**
 * Records the stages' cumulative numbers into the run's family as they grow: each call adds only what grew since
 * the last one. The counts are the meters' reads, exact; a stage's busy time is a sum of mins, which only grows, and
 * goes out with its operations (time that grew while the count did not waits for the next operation).
 */
export class StageRecorder {
  private readonly taken = new Map<string, Taken>();

  constructor(
    private readonly family: Stats,
    private readonly base: BaseLabels,
  ) {}

  record(stages: readonly StageTotals[]): void {
    for (const stage of stages) {
      const component = stage.component ?? this.base.component;
      const implementation = stage.implementation ?? this.base.implementation;
      const key = `${component}\n${implementation}\n${stage.operation}`;
      let taken = this.taken.get(key);
      if (taken === undefined) {
        const handle = this.family.scope({ component, implementation, operation: stage.operation });
        taken = { handle, count: 0, bytes: 0, busyMs: 0 };
        this.taken.set(key, taken);
      }
      const count = stage.count - taken.count;
      if (count <= 0) continue;
      const bytes = Math.max(0, stage.bytes - taken.bytes);
      const busyMs = Math.max(0, stage.busyMs - taken.busyMs);
      addOperations(taken.handle, count, bytes, busyMs);
      taken.count = stage.count;
      taken.bytes += bytes;
      taken.busyMs += busyMs;
    }
  }
}

/**
 * `count` operations that moved `bytes` in `ms`, as `count` records of an even share each (the latency histogram then
 * holds the average per operation of each flush), the remainder of the bytes on the last, so the sums stay exact.
 */
function addOperations(handle: Stats, count: number, bytes: number, ms: number): void {
  const share = Math.floor(bytes / count);
  const each = ms / count;
  for (let i = 1; i < count; i++) handle.timedIncrementBytes(share, each);
  handle.timedIncrementBytes(bytes - share * (count - 1), Math.max(0, ms - each * (count - 1)));
}
