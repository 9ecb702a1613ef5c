import {
  type BatchObservableResult,
  type Meter,
  type Observable,
  type ObservableCounter,
  type ObservableUpDownCounter,
  ValueType,
} from '@opentelemetry/api';
import type { FamilyRegistry } from '../family/family-registry.js';
import { FAMILIES, selfMetricNames } from '../naming/naming-types.js';

/** What the self-metrics count of one stats instance. */
export interface Counted {
  /** The backup and the restore registry, in the order of {@link FAMILIES}. */
  readonly families: readonly [FamilyRegistry, FamilyRegistry];
}

/** The self-metrics of every stats instance on one MeterProvider: invalid measurements and scopes held, per family. */
export interface SelfMetrics {
  /** The observable instruments, for the batch callback that observes them. */
  readonly observables: readonly Observable[];
  /** Observes the sums over `members` (and over the instances retired before). */
  observe(result: BatchObservableResult, members: Iterable<Counted>): void;
  /** Keeps the invalid measurements of an instance that leaves: the counter is cumulative and must never go back. */
  retire(member: Counted): void;
}

const FAMILY_ATTRIBUTES = FAMILIES.map((family) => Object.freeze({ family }));

/** Creates the self-metric instruments on `meter`, named after `prefix`. */
export function createSelfMetrics(meter: Meter, prefix: string): SelfMetrics {
  const names = selfMetricNames(prefix);
  const invalid: ObservableCounter = meter.createObservableCounter(names.invalid, {
    description: 'Measurements dropped because a byte count or duration was negative, NaN, infinite or not a number.',
    unit: '{measurement}',
    valueType: ValueType.INT,
  });
  const scopes: ObservableUpDownCounter = meter.createObservableUpDownCounter(names.scopes, {
    description: 'Distinct label combinations held in memory (the overflow series is not counted).',
    unit: '{scope}',
    valueType: ValueType.INT,
  });
  const retiredInvalid = FAMILIES.map(() => 0);

  return {
    observables: [invalid, scopes],
    observe(result, members) {
      FAMILY_ATTRIBUTES.forEach((attributes, i) => {
        let invalidCount = retiredInvalid[i] as number;
        let scopeCount = 0;
        for (const member of members) {
          const registry = member.families[i] as FamilyRegistry;
          invalidCount += registry.invalidCount;
          scopeCount += registry.scopeCount;
        }
        result.observe(invalid, invalidCount, attributes);
        result.observe(scopes, scopeCount, attributes);
      });
    },
    retire(member) {
      member.families.forEach((registry, i) => {
        retiredInvalid[i] = (retiredInvalid[i] as number) + registry.invalidCount;
      });
    },
  };
}
