import type { ResolvedLabels, ScopeLabels } from './labels.js';
import type { FamilyRegistry } from './family-registry.js';
import type { Stats } from './stats.js';

/**
 * What `scope()` returns once a family holds `maxScopes - 1` handles: it keeps its labels, so scoping from it
 * still works, but records into the family's single overflow series. It is not memoized, so memory stays
 * flat however many distinct labels arrive.
 */
export class OverflowHandle implements Stats {
  constructor(
    readonly registry: FamilyRegistry,
    readonly labels: ResolvedLabels,
    readonly target: Stats,
  ) {}

  scope(labels: ScopeLabels): Stats {
    return this.registry.scope(this.labels, labels);
  }

  timedIncrement(durationMs: number): void {
    this.target.timedIncrement(durationMs);
  }

  timedIncrementBytes(bytes: number, durationMs: number): void {
    this.target.timedIncrementBytes(bytes, durationMs);
  }
}
