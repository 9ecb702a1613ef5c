import type { ResolvedLabels } from '../api/labels.js';
import type { Run, RunOptions } from '../api/run.js';
import type { Stats } from '../api/stats.js';
import { ScopeHandle, type ScopeLookup } from './scope-handle.js';

/** The series an overflow handle records into: a family's overflow series, in this thread or in a worker's. */
export type OverflowTarget = Pick<Stats, 'timedIncrement' | 'timedIncrementBytes' | 'startRun'>;

/**
 * What `scope()` returns once a family holds `maxScopes - 1` handles: it keeps its labels, so scoping from it
 * still works, but records (runs included) into the family's single overflow series. It is not memoized, so memory stays
 * flat however many distinct labels arrive.
 */
export class OverflowHandle extends ScopeHandle {
  constructor(
    lookup: ScopeLookup,
    labels: ResolvedLabels,
    private readonly target: OverflowTarget,
  ) {
    super(lookup, labels);
  }

  timedIncrement(durationMillis: number, weight?: number): void {
    this.target.timedIncrement(durationMillis, weight);
  }

  timedIncrementBytes(bytes: number, durationMillis: number, weight?: number): void {
    this.target.timedIncrementBytes(bytes, durationMillis, weight);
  }

  startRun(options?: RunOptions): Run {
    return this.target.startRun(options);
  }
}
