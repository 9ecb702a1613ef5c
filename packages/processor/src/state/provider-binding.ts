import { createNoopMeter, type Meter, type MeterProvider, metrics } from '@opentelemetry/api';
import type { FirstError } from '../diagnostics/first-error.js';
import { noop } from '../doubles/noop-stats.js';
import { METER_NAME, VERSION } from '../version.js';
import { type CollectionHook, collectionHookOf, type Member } from './collection-hook.js';
import type { StatsSharedState } from './stats-shared-state.js';

/** What the API's no-op MeterProvider (the global one until an SDK registers) hands out. */
const NOOP_METER = createNoopMeter();

/**
 * Connects one stats instance to its MeterProvider: the one given, or else the global one. The API has no proxy
 * MeterProvider for metrics: instruments taken from the global provider before an SDK registers are no-ops for
 * good. So the stats take none until the global provider is a real one, and look for it again at every flush.
 */
export class ProviderBinding {
  private hook: CollectionHook | undefined;
  private following = true;
  private readonly member: Member;

  constructor(
    private readonly state: StatsSharedState,
    given: MeterProvider | undefined,
    /** The stats' `metricPrefix`, which their self-metrics carry too. */
    private readonly prefix: string,
  ) {
    this.member = { families: state.families, flushBeforeCollection: () => state.flushBeforeCollection() };
    if (given !== undefined) {
      const meter = given.getMeter(METER_NAME, VERSION);
      if (meter === NOOP_METER) state.diagnostics.noopProviderGiven();
      this.bind(given, meter);
    } else if (!this.bindGlobal()) {
      state.diagnostics.waitingForGlobalProvider();
      // Until one is found, every scope() looks again: a collection right after a scope() taken once the
      // application registered its provider must see the records.
      const look = (): void => {
        this.follow();
      };
      for (const registry of state.families) registry.lookForProvider = look;
    }
  }

  /** True once the stats have instruments. */
  get bound(): boolean {
    return this.hook !== undefined;
  }

  /** True once the stats have instruments; until then, looks for a global provider registered since. */
  follow(): boolean {
    if (this.hook !== undefined) return true;
    if (!this.following || !this.bindGlobal()) return false;
    this.state.diagnostics.followedGlobalProvider();
    return true;
  }

  /** Looks for the global provider one last time, then never again; true when the stats have instruments. */
  stopFollowing(): boolean {
    const bound = this.follow();
    this.following = false;
    for (const registry of this.state.families) registry.lookForProvider = noop;
    return bound;
  }

  /** Leaves the provider's collection hook, keeping an error of the Meter in `errors`. */
  leave(errors: FirstError): void {
    const hook = this.hook;
    if (hook !== undefined) errors.attempt(() => hook.leave(this.member));
  }

  private bindGlobal(): boolean {
    const provider = metrics.getMeterProvider();
    const meter = provider.getMeter(METER_NAME, VERSION);
    if (meter === NOOP_METER) return false;
    this.bind(provider, meter);
    return true;
  }

  private bind(provider: MeterProvider, meter: Meter): void {
    this.state.bind(meter);
    this.hook = collectionHookOf(provider, meter, this.prefix);
    this.hook.join(this.member);
    // What waited for a provider goes now, so that its points start here rather than at a collection's drain,
    // after the collection's time.
    this.state.flushReporting();
  }
}
