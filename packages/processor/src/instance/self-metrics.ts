import { type Counter, type Meter, type Observable, type UpDownCounter, ValueType } from '@opentelemetry/api';
import type { FamilyRegistry } from '../family/family-registry.js';
import { FAMILIES, selfMetricNames } from '../naming/naming-types.js';

/** What the self-metrics count of one stats instance. */
export interface Counted {
  /** Every family's registry, in the order of {@link FAMILIES}. */
  readonly families: readonly FamilyRegistry[];
}

/**
 * The self-metrics of every stats instance on one MeterProvider: invalid measurements and the series that hold
 * numbers, per family.
 */
export interface SelfMetrics {
  /** The observable instrument the batch callback is registered with; never observed. */
  readonly observable: Observable;
  /** Adds to the instruments what changed in the sums over `members` (and the instances retired) since the last call. */
  update(members: Iterable<Counted>): void;
  /**
   * Keeps the invalid measurements of an instance that leaves (the counter is cumulative and must never go back) and
   * its series: they stay in the instruments, and the export after shutdown, a batch job's only one, shows them.
   */
  retire(member: Counted): void;
}

const FAMILY_ATTRIBUTES = FAMILIES.map((family) => Object.freeze({ family }));

/**
 * Creates the self-metric instruments on `meter`, named after `prefix`. They are synchronous, fed the change of
 * each sum: the SDK starts an observable series at its first collection, so its first point would start where it
 * ends, whereas a synchronous one starts at its first add. The hook updates them when an instance joins (before any
 * collection that exports them) and in every collection, even by 0: a delta reader's point then starts at its
 * previous collection, never inside the collection that adds.
 */
export function createSelfMetrics(meter: Meter, prefix: string): SelfMetrics {
  const names = selfMetricNames(prefix);
  const invalid: Counter = meter.createCounter(names.invalid, {
    description: 'Measurements dropped because a byte count or duration was negative, NaN, infinite or not a number.',
    unit: '{measurement}',
    valueType: ValueType.INT,
  });
  const scopes: UpDownCounter = meter.createUpDownCounter(names.scopes, {
    description: 'Label combinations recorded on, whose series the exports carry (the overflow series is not counted).',
    unit: '{scope}',
    valueType: ValueType.INT,
  });
  const observable = meter.createObservableGauge(names.collection, {
    description: 'Never observed: the instrument the collection hook of backupstats is registered with.',
  });
  const retiredInvalid = FAMILIES.map(() => 0);
  const retiredScopes = FAMILIES.map(() => 0);
  // What the instruments hold, per family: each update adds the difference.
  const addedInvalid = FAMILIES.map(() => 0);
  const addedScopes = FAMILIES.map(() => 0);

  return {
    observable,
    update(members) {
      FAMILY_ATTRIBUTES.forEach((attributes, i) => {
        let invalidCount = retiredInvalid[i] as number;
        let scopeCount = retiredScopes[i] as number;
        for (const member of members) {
          const registry = member.families[i] as FamilyRegistry;
          invalidCount += registry.invalidCount;
          scopeCount += registry.scopeCount;
        }
        invalid.add(invalidCount - (addedInvalid[i] as number), attributes);
        addedInvalid[i] = invalidCount;
        scopes.add(scopeCount - (addedScopes[i] as number), attributes);
        addedScopes[i] = scopeCount;
      });
    },
    retire(member) {
      member.families.forEach((registry, i) => {
        retiredInvalid[i] = (retiredInvalid[i] as number) + registry.invalidCount;
        retiredScopes[i] = (retiredScopes[i] as number) + registry.scopeCount;
      });
    },
  };
}
