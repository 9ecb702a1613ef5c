import type { Meter } from '@opentelemetry/api';
import { Diagnostics } from '../diagnostics/diagnostics.js';
import { FirstError } from '../diagnostics/first-error.js';
import { ExplicitBuckets } from '../histogram/explicit-buckets.js';
import { attachHistograms } from '../histogram/histogram-producer.js';
import { familySpec } from '../naming/counter-naming.js';
import { FAMILIES } from '../naming/naming-types.js';
import type { ResolvedOptions } from '../options.js';
import type { FamilyRegistry } from '../registry/family-registry.js';
import { registryKind } from '../registry/registry-kinds.js';
import { WorkerLinks } from '../worker/worker-links.js';

/**
 * What every part of one stats instance shares: the backup and the restore registry and the diagnostics that
 * report each problem once. The parts around it decide when to flush (the timer, the collection hook) and where
 * to (the provider binding).
 */
export class StatsSharedState {
  readonly diagnostics = new Diagnostics();
  /** The backup and the restore registry, in the order of {@link FAMILIES}. */
  readonly families: readonly [FamilyRegistry, FamilyRegistry];
  /** The shared memory of the worker threads connected through this instance's links, read before every flush. */
  readonly workers: WorkerLinks;

  constructor(resolved: ResolvedOptions) {
    const Registry = registryKind(resolved.flushIntervalMillis);
    // One layout for every series of the instance: its explicit boundaries and the map to them. Histograms are kept
    // only when a producer will hand them to a reader: without one, a record does not touch them.
    const keep = resolved.histograms && resolved.histogramProducers.length > 0;
    const buckets = keep ? new ExplicitBuckets(resolved.histogramBoundaries) : undefined;
    const [backup, restore] = FAMILIES.map(
      (family) =>
        new Registry(
          family,
          familySpec(resolved.naming, family, resolved.metricPrefix),
          resolved.maxScopes,
          this.diagnostics,
          buckets,
        ),
    ) as [FamilyRegistry, FamilyRegistry];
    this.families = [backup, restore];
    this.workers = new WorkerLinks(this.families, keep ? resolved.histogramBoundaries : undefined);
    const readWorkers = (): void => this.workers.read();
    for (const registry of this.families) registry.beforeHistograms = readWorkers;
    for (const producer of resolved.histogramProducers) attachHistograms(producer, this.families);
  }

  /** Creates every family's instruments on `meter`. */
  bind(meter: Meter): void {
    for (const registry of this.families) registry.bind(meter);
  }

  /**
   * Flushes every family, even when the other one's instruments throw.
   *
   * @throws the first error an instrument threw.
   */
  flush(): void {
    const errors = new FirstError();
    this.workers.read();
    for (const registry of this.families) registry.flush(errors);
    errors.throwIfAny();
    this.diagnostics.flushSucceeded();
  }

  /**
   * Flushes and reports a failure through `diag` instead of throwing: for the automatic triggers (timer,
   * collection), where an exception escaping a timer would end the user's process, and one escaping a callback
   * would be the SDK's to log, once per export.
   */
  flushReporting(): void {
    try {
      this.flush();
    } catch (error) {
      this.diagnostics.flushFailed(error);
    }
  }

  /** The flush of the collection hook, after which every series' next numbers open a new interval. */
  flushBeforeCollection(): void {
    this.flushReporting();
    for (const registry of this.families) registry.collected();
  }

  /**
   * Ends the runs in progress as interrupted, then flushes and closes every family (see
   * {@link FamilyRegistry.close}), keeping the first error in `errors`. Stats that never had a provider say first
   * what they never exported.
   */
  close(errors: FirstError, bound: boolean): void {
    for (const registry of this.families) registry.endRuns();
    this.workers.close();
    if (!bound) this.reportNeverExported();
    for (const registry of this.families) registry.close(errors);
  }

  private reportNeverExported(): void {
    let operations = 0;
    let runs = 0;
    for (const registry of this.families) {
      operations += registry.pendingOperations;
      runs += registry.pendingRuns;
    }
    if (operations + runs > 0) this.diagnostics.neverExported(operations, runs);
  }
}
