import { createNoopMeter, type Meter, type MeterProvider, metrics } from '@opentelemetry/api';
import type { WorkerLink, WorkerLinkOptions } from '../api/link-types.js';
import type { BackupStats } from '../api/stats.js';
import { METER_NAME, VERSION } from '../api/version.js';
import { FirstError } from '../base/first-error.js';
import { waitPastMillisecond } from '../base/wall-clock.js';
import { Diagnostics } from '../diagnostics/diagnostics.js';
import { type FamilyHost, FamilyRegistry } from '../family/family-registry.js';
import { ExplicitBuckets } from '../histogram/explicit-buckets.js';
import { attachHistograms } from '../histogram/histogram-producer.js';
import { checkOneReaderEach } from '../histogram/one-reader.js';
import { familySpec } from '../naming/counter-naming.js';
import { FAMILIES } from '../naming/naming-types.js';
import { WorkerLinks } from '../reader/worker-links.js';
import type { FamilyTimeline } from '../timeline/family-timeline.js';
import { attachTimeline } from '../timeline/stats-timeline.js';
import { type CollectionHook, collectionHookOf, type Member } from './collection-hook.js';
import { DEFAULT_FLUSH_INTERVAL_MILLIS, type ResolvedOptions } from './options.js';

/** What the API's no-op MeterProvider (the global one until an SDK registers) hands out. */
const NOOP_METER = createNoopMeter();

/**
 * One stats instance, whole: a registry per family, the diagnostics that report each problem once,
 * the links of its worker threads, the binding to its MeterProvider (the given one, or else the global one), the
 * flush timer and its place in the provider's collection hook. The registries know it as their {@link FamilyHost}.
 *
 * The API has no proxy MeterProvider for metrics: instruments taken from the global provider before an SDK
 * registers are no-ops for good. So without a given provider the stats take none until the global provider is a
 * real one, and look for it again at every flush and every scope().
 */
export class StatsInstance implements FamilyHost {
  readonly diagnostics: Diagnostics;
  /** Every family's registry, in the order of {@link FAMILIES}. */
  readonly families: readonly FamilyRegistry[];
  /** The shared memory of the worker threads connected through this instance's links, read before every flush. */
  readonly workers: WorkerLinks;
  /** Each family's timeline and runs, sampled at its flushes (timeline/), for `backupstats/report`. */
  readonly timelines: readonly FamilyTimeline[];
  /** What the user holds: a `Stats` per family, `flush()`, `shutdown()`, `workerLink()`. */
  readonly stats: BackupStats;
  private hook: CollectionHook | undefined;
  private following = true;
  private readonly member: Member;
  /** The stats' `metricPrefix`, which their self-metrics carry too. */
  private readonly prefix: string;
  private timer: NodeJS.Timeout | undefined;
  private closing: Promise<void> | undefined;

  constructor(resolved: ResolvedOptions) {
    this.diagnostics = new Diagnostics(resolved.quiet);
    this.prefix = resolved.metricPrefix;
    // One layout for every series of the instance: its explicit boundaries and the map to them. Histograms are kept
    // only when a producer will hand them to a reader: without one, a record does not touch them.
    const keep = resolved.histograms && resolved.histogramProducers.length > 0;
    const buckets = keep ? new ExplicitBuckets(resolved.histogramBoundaries) : undefined;
    // Unthrottled stats (`flushIntervalMillis: 0`) record straight into their instruments.
    const direct = resolved.flushIntervalMillis === 0;
    const [backup, restore, verify, prune] = FAMILIES.map(
      (family) =>
        new FamilyRegistry(
          family,
          familySpec(resolved.naming, family, resolved.metricPrefix),
          resolved.maxScopes,
          this,
          buckets,
          direct,
        ),
    ) as [FamilyRegistry, FamilyRegistry, FamilyRegistry, FamilyRegistry];
    this.families = [backup, restore, verify, prune];
    this.workers = new WorkerLinks(this.families, keep ? resolved.histogramBoundaries : undefined, this.diagnostics);
    for (const producer of resolved.histogramProducers) attachHistograms(producer, this.families);
    const readWorkers = (): void => this.workers.read();
    this.timelines = this.families.map((registry) => registry.attachTimeline(readWorkers));
    this.member = { families: this.families, flushBeforeCollection: () => this.flushBeforeCollection() };
    checkOneReaderEach(resolved.meterProvider ?? metrics.getMeterProvider(), resolved.histogramProducers);
    this.bindProvider(resolved.meterProvider);
    this.startTimer(resolved.flushIntervalMillis);
    this.stats = {
      backup: backup.root,
      restore: restore.root,
      verify: verify.root,
      prune: prune.root,
      flush: (): void => {
        if (this.follow()) this.flush();
      },
      shutdown: (): Promise<void> => {
        this.closing ??= this.close();
        return this.closing;
      },
      workerLink: (options?: WorkerLinkOptions): WorkerLink => this.workers.create(options),
    };
    attachTimeline(this.stats, {
      createdAt: Date.now(),
      families: this.timelines,
      kept: !direct,
      flush: () => {
        if (this.follow()) this.flushReporting();
      },
      histogramBoundaries: keep ? resolved.histogramBoundaries : undefined,
    });
  }

  /**
   * Until the stats have instruments, every scope() looks for a global provider registered since: a collection
   * right after a scope() taken once the application registered its provider must see the records.
   */
  lookForProvider(): void {
    this.follow();
  }

  /** Before the histograms are handed to a producer: reads what worker threads recorded into them. */
  readWorkers(): void {
    this.workers.read();
  }

  /**
   * Flushes every family, even when another one's instruments throw.
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

  /** The flush of the collection hook, after which a series idle since opens a new interval at its next record. */
  private flushBeforeCollection(): void {
    this.flushReporting();
    for (const registry of this.families) registry.collected();
  }

  /** True once the stats have instruments; until then, looks for a global provider registered since. */
  private follow(): boolean {
    if (this.hook !== undefined) return true;
    if (!this.following || !this.bindGlobal()) return false;
    this.diagnostics.followedGlobalProvider();
    return true;
  }

  /** The given provider, or else the global one if an SDK registered it already. */
  private bindProvider(given: MeterProvider | undefined): void {
    if (given !== undefined) {
      const meter = given.getMeter(METER_NAME, VERSION);
      if (meter === NOOP_METER) this.diagnostics.noopProviderGiven();
      this.bind(given, meter);
    } else if (!this.bindGlobal()) {
      this.diagnostics.waitingForGlobalProvider();
    }
  }

  private bindGlobal(): boolean {
    const provider = metrics.getMeterProvider();
    const meter = provider.getMeter(METER_NAME, VERSION);
    if (meter === NOOP_METER) return false;
    this.bind(provider, meter);
    return true;
  }

  /** Creates every family's instruments on `meter` and joins the provider's collection hook. */
  private bind(provider: MeterProvider, meter: Meter): void {
    for (const registry of this.families) registry.bind(meter);
    this.hook = collectionHookOf(provider, meter, this.prefix);
    this.hook.join(this.member);
    // What waited for a provider goes now, so that its points start here rather than at a collection's drain,
    // after the collection's time.
    this.flushReporting();
  }

  /**
   * Every `flushIntervalMillis` the timer looks for a provider if the stats have none yet, and flushes once they
   * have one. Unthrottled stats need it only to find a global provider registered after them, every default
   * interval until then. The timer is unref'd: a backup job must be free to end.
   */
  private startTimer(flushIntervalMillis: number): void {
    const direct = flushIntervalMillis === 0;
    if (direct && this.hook !== undefined) return;
    const timer = setInterval(
      () => {
        if (!this.follow()) return;
        this.flushReporting();
        if (direct) clearInterval(timer);
      },
      direct ? DEFAULT_FLUSH_INTERVAL_MILLIS : flushIntervalMillis,
    );
    timer.unref();
    this.timer = timer;
  }

  /**
   * Closes everything even when an instrument or the Meter throws, and reports the first error by rejecting:
   * ends the runs in progress as interrupted (so that the last flush carries them), looks for the global provider
   * one last time, flushes and closes every family (see {@link FamilyRegistry.close}) and leaves the collection
   * hook. Stats that never had a provider report first what they never exported.
   */
  private close(): Promise<void> {
    clearInterval(this.timer);
    const bound = this.follow();
    this.following = false;
    const errors = new FirstError();
    for (const registry of this.families) registry.endRuns();
    this.workers.close();
    if (!bound) this.reportNeverExported();
    for (const registry of this.families) registry.close(errors);
    const hook = this.hook;
    if (hook !== undefined) errors.attempt(() => hook.leave(this.member));
    // The provider's export after shutdown comes next. The SDK reads its clock in whole milliseconds, and the runs
    // just ended (the interrupted ones by this very shutdown) may have started series in this one: once it has
    // passed, their points start before that export's end.
    if (bound) waitPastMillisecond(Date.now());
    return errors.settle();
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
