import {
  type BatchObservableResult,
  type Meter,
  type MeterProvider,
  type ObservableCounter,
  type ObservableUpDownCounter,
  ValueType,
} from '@opentelemetry/api';
import type { FamilyRegistry } from '../registry/family-registry.js';

/** One stats instance, as the self-metrics of its provider see it. */
export interface Member {
  /** The backup and the restore registry, in that order. */
  readonly families: readonly [FamilyRegistry, FamilyRegistry];
  /** Adds the instance's pending measurements to its instruments; never throws. */
  flushBeforeCollection(): void;
}

/** The self-metrics of every stats instance on one MeterProvider. */
export interface SelfMetrics {
  join(member: Member): void;
  leave(member: Member): void;
}

const FAMILY_ATTRIBUTES = [Object.freeze({ family: 'backup' }), Object.freeze({ family: 'restore' })] as const;

/**
 * The SDK gives every stats instance on a provider the same Meter and the same two observables, and keeps
 * one observation per attribute set per collection: one callback per instance would let the last one win.
 * So one batch callback per provider observes the sums over the live instances. It also drains their pending
 * measurements: the SDK runs observable callbacks before it collects the synchronous counters of the same
 * Meter, so no collection exports stale totals (pinned by test/collection-order.test.ts).
 */
const byProvider = new WeakMap<MeterProvider, SelfMetrics>();

/** The self-metrics of `provider`, created on `meter` by the first instance that asks. */
export function selfMetricsOf(provider: MeterProvider, meter: Meter): SelfMetrics {
  let selfMetrics = byProvider.get(provider);
  if (selfMetrics === undefined) {
    selfMetrics = createSelfMetrics(meter);
    byProvider.set(provider, selfMetrics);
  }
  return selfMetrics;
}

function createSelfMetrics(meter: Meter): SelfMetrics {
  const invalid: ObservableCounter = meter.createObservableCounter('backupstats.invalid_measurements', {
    description: 'Measurements dropped because a byte count or duration was negative, NaN, infinite or not a number.',
    unit: '{measurement}',
    valueType: ValueType.INT,
  });
  const scopes: ObservableUpDownCounter = meter.createObservableUpDownCounter('backupstats.scopes', {
    description: 'Distinct label combinations held in memory (the overflow series is not counted).',
    unit: '{scope}',
    valueType: ValueType.INT,
  });
  const observables = [invalid, scopes];
  const members = new Set<Member>();
  // Invalid measurements of instances already shut down: the counter is cumulative and must never go back.
  const retiredInvalid = [0, 0];

  const collect = (result: BatchObservableResult): void => {
    for (const member of members) member.flushBeforeCollection();
    for (let i = 0; i < 2; i++) {
      let invalidCount = retiredInvalid[i] as number;
      let scopeCount = 0;
      for (const member of members) {
        const registry = member.families[i] as FamilyRegistry;
        invalidCount += registry.invalidCount;
        scopeCount += registry.scopeCount;
      }
      result.observe(invalid, invalidCount, FAMILY_ATTRIBUTES[i]);
      result.observe(scopes, scopeCount, FAMILY_ATTRIBUTES[i]);
    }
  };

  return {
    join(member) {
      // With no member left the callback is removed, so that a provider whose stats are all shut down
      // exports no self-metrics; the first member to come back adds it again.
      if (members.size === 0) meter.addBatchObservableCallback(collect, observables);
      members.add(member);
    },
    leave(member) {
      if (!members.delete(member)) return;
      member.families.forEach((registry, i) => {
        retiredInvalid[i] = (retiredInvalid[i] as number) + registry.invalidCount;
      });
      if (members.size === 0) meter.removeBatchObservableCallback(collect, observables);
    },
  };
}
