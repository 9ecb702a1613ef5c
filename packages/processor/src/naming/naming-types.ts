// The vocabulary every naming preset is written in, apart from the presets themselves, so that the counters'
// and the runs' namings can share it without importing each other.
import type { ValueType } from '@opentelemetry/api';

/** Which metric names and units to emit: OpenTelemetry style, or the names Vitess exports. */
export type Naming = 'otel' | 'vitess';

/** The naming presets {@link Naming} accepts. */
export const NAMINGS: readonly Naming[] = Object.freeze(['otel', 'vitess'] as const);

/** The measurement families: backups, restores, verifications of backups, and prunes of old backups. */
export type Family = 'backup' | 'restore' | 'verify' | 'prune';

/** Every family, in the order their registries, timelines and worker regions are kept in. */
export const FAMILIES: readonly Family[] = Object.freeze(['backup', 'restore', 'verify', 'prune'] as const);

/** What an OpenTelemetry counter of one family is called, in which unit, and how to fill it. */
export interface CounterSpec {
  readonly name: string;
  readonly unit: string;
  readonly description: string;
  readonly valueType: ValueType;
}

// The self-metrics are the library's own: one name per provider and prefix, the same in both namings.

/**
 * The self-metrics' names, after `prefix` (the stats' `metricPrefix`). `collection` names the observable instrument
 * the collection hook's batch callback is registered with: it is never observed, so it is never exported.
 */
export function selfMetricNames(prefix: string): {
  readonly invalid: string;
  readonly scopes: string;
  readonly collection: string;
} {
  return {
    invalid: `${prefix}backupstats.invalid_measurements`,
    scopes: `${prefix}backupstats.scopes`,
    collection: `${prefix}backupstats.collection`,
  };
}
