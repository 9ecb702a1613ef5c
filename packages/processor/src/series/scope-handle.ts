import type { ResolvedLabels, ScopeLabels } from '../api/labels.js';
import type { Run, RunOptions } from '../api/run.js';
import type { Stats } from '../api/stats.js';

/** Where a handle finds the handle for narrower labels: its family's registry. */
export interface ScopeLookup {
  scope(parent: ResolvedLabels, given: ScopeLabels | undefined): Stats;
}

/**
 * What every handle that `scope()` hands out has: its labels, and scoping from them through its family. The
 * recording methods belong to each concrete class, so that a call site recording on one kind of handle stays
 * monomorphic.
 */
export abstract class ScopeHandle<Owner extends ScopeLookup = ScopeLookup> implements Stats {
  constructor(
    protected readonly owner: Owner,
    readonly labels: ResolvedLabels,
  ) {}

  scope(labels: ScopeLabels): Stats {
    return this.owner.scope(this.labels, labels);
  }

  abstract timedIncrement(durationMillis: number, weight?: number): void;
  abstract timedIncrementBytes(bytes: number, durationMillis: number, weight?: number): void;
  abstract startRun(options?: RunOptions): Run;
}
