import type { Meter, MeterProvider } from '@opentelemetry/api';
import { type Counted, createSelfMetrics, type SelfMetrics } from './self-metrics.js';

/** One stats instance, as the collection hook of its provider sees it. */
export interface Member extends Counted {
  /** Adds the instance's pending measurements to its instruments; never throws. */
  flushBeforeCollection(): void;
}

/** The hook every collection of one MeterProvider runs first, shared by the stats instances on that provider. */
export interface CollectionHook {
  join(member: Member): void;
  leave(member: Member): void;
}

/**
 * The flush before every collection, which keeps exports from ever being stale. The SDK runs observable
 * callbacks before it collects the synchronous counters of the same Meter, so a batch callback that drains the
 * pending measurements makes the collection see them (pinned by the collection-order test). A batch callback
 * needs an observable instrument: the self-metrics' never-observed one. The SDK gives every stats instance on a
 * provider the same Meter and the same self-metric instruments, so one callback per provider adds the change of
 * the sums over the live instances (self-metrics.ts).
 */
const byProvider = new WeakMap<MeterProvider, Map<string, CollectionHook>>();

/**
 * The collection hook of `provider` for stats whose metric names start with `prefix` (each prefix has its own
 * self-metrics), created on `meter` by the first instance that asks.
 */
export function collectionHookOf(provider: MeterProvider, meter: Meter, prefix: string): CollectionHook {
  let hooks = byProvider.get(provider);
  if (hooks === undefined) {
    hooks = new Map();
    byProvider.set(provider, hooks);
  }
  let hook = hooks.get(prefix);
  if (hook === undefined) {
    hook = createCollectionHook(meter, createSelfMetrics(meter, prefix));
    hooks.set(prefix, hook);
  }
  return hook;
}

function createCollectionHook(meter: Meter, selfMetrics: SelfMetrics): CollectionHook {
  const members = new Set<Member>();
  const collect = (): void => {
    for (const member of members) member.flushBeforeCollection();
    selfMetrics.update(members);
  };
  const observables = [selfMetrics.observable];
  return {
    join(member) {
      // With no member left the callback is removed, so that a provider whose stats are all shut down no longer
      // calls into them; the first member to come back adds it again.
      if (members.size === 0) meter.addBatchObservableCallback(collect, observables);
      members.add(member);
      selfMetrics.update(members);
    },
    leave(member) {
      if (!members.delete(member)) return;
      selfMetrics.retire(member);
      selfMetrics.update(members);
      if (members.size === 0) meter.removeBatchObservableCallback(collect, observables);
    },
  };
}
