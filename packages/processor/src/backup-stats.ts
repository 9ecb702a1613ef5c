import { createNoopMeter, type Meter, type MeterProvider, metrics } from '@opentelemetry/api';
import { Diagnostics } from './diagnostics/diagnostics.js';
import { familySpec } from './naming/counter-naming.js';
import {
  type BackupStatsOptions,
  DEFAULT_FLUSH_INTERVAL_MILLIS,
  type ResolvedOptions,
  resolveOptions,
} from './options.js';
import type { FamilyRegistry } from './registry/family-registry.js';
import { registryKind } from './registry/registry-kinds.js';
import { type Member, type SelfMetrics, selfMetricsOf } from './state/self-metrics.js';
import type { BackupStats } from './stats.js';
import { METER_NAME, VERSION } from './version.js';

/** What the API's no-op MeterProvider (the global one until an SDK registers) hands out. */
const NOOP_METER = createNoopMeter();

/**
 * Creates backup and restore stats whose measurements are aggregated in process and added to OpenTelemetry
 * counters on a timer, on {@link BackupStats.flush}, before every collection by a MetricReader, and on
 * {@link BackupStats.shutdown}.
 *
 * Without `meterProvider`, the stats use the global MeterProvider; created before the application registers
 * one, they keep every measurement pending and move to the global provider as soon as a flush finds it
 * registered, so nothing recorded before is lost.
 *
 * @throws TypeError naming the option, its value and what is accepted, when an option is invalid.
 */
export function createBackupStats(options: BackupStatsOptions = {}): BackupStats {
  return openBackupStats(resolveOptions(options));
}

/** Creates the stats from options already resolved: `backupstats/setup` resolves them naming their variables. */
export function openBackupStats(resolved: ResolvedOptions): BackupStats {
  const diagnostics = new Diagnostics();
  const direct = resolved.flushIntervalMillis === 0;
  const Registry = registryKind(resolved.flushIntervalMillis);

  const families = (['backup', 'restore'] as const).map((family) => {
    return new Registry(
      family,
      familySpec(resolved.naming, family, resolved.metricPrefix),
      resolved.maxScopes,
      diagnostics,
    );
  }) as [FamilyRegistry, FamilyRegistry];
  const [backup, restore] = families;

  // Every family is flushed even when the other one's instruments throw; the first error is thrown after.
  const flushFamilies = (): void => {
    let failure: { error: unknown } | undefined;
    for (const registry of families) {
      try {
        registry.flush();
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure !== undefined) throw failure.error;
    diagnostics.flushSucceeded();
  };
  // The automatic triggers (timer, collection) report a failure through diag instead: an exception escaping a
  // timer would end the user's process, and one escaping a callback would be the SDK's to log, once per export.
  const flushReporting = (): void => {
    try {
      flushFamilies();
    } catch (error) {
      diagnostics.flushFailed(error);
    }
  };

  const member: Member = { families, flushBeforeCollection: flushReporting };
  let selfMetrics: SelfMetrics | undefined;
  let closed = false;
  const bind = (provider: MeterProvider, meter: Meter): void => {
    for (const registry of families) registry.bind(meter);
    selfMetrics = selfMetricsOf(provider, meter);
    selfMetrics.join(member);
  };
  // The API has no proxy MeterProvider for metrics: instruments taken from the global provider before an SDK
  // registers are no-ops for good. So the stats take none until the global provider is a real one.
  const bindGlobal = (): boolean => {
    const provider = metrics.getMeterProvider();
    const meter = provider.getMeter(METER_NAME, VERSION);
    if (meter === NOOP_METER) return false;
    bind(provider, meter);
    return true;
  };
  /** True once the stats have instruments; until then, looks for a global provider registered since. */
  const follow = (): boolean => {
    if (selfMetrics !== undefined) return true;
    if (closed || !bindGlobal()) return false;
    diagnostics.followedGlobalProvider();
    return true;
  };
  if (resolved.meterProvider !== undefined) {
    const meter = resolved.meterProvider.getMeter(METER_NAME, VERSION);
    if (meter === NOOP_METER) diagnostics.noopProviderGiven();
    bind(resolved.meterProvider, meter);
  } else if (!bindGlobal()) {
    diagnostics.waitingForGlobalProvider();
  }

  let timer: NodeJS.Timeout | undefined;
  // Unthrottled stats need the timer only to find a global provider registered after them.
  if (!direct || selfMetrics === undefined) {
    timer = setInterval(
      () => {
        if (!follow()) return;
        flushReporting();
        if (direct) clearInterval(timer);
      },
      direct ? DEFAULT_FLUSH_INTERVAL_MILLIS : resolved.flushIntervalMillis,
    );
    // A backup job must be free to end: the timer never holds the event loop open.
    timer.unref();
  }

  // Closes everything even when an instrument or the Meter throws, and reports the first error by rejecting.
  const close = (): Promise<void> => {
    if (timer !== undefined) clearInterval(timer);
    follow();
    closed = true;
    // Closing ends the runs in progress, which then wait like the rest: counted after it.
    const unbound = selfMetrics === undefined;
    let failure: { error: unknown } | undefined;
    const attempt = (step: () => void): void => {
      try {
        step();
      } catch (error) {
        failure ??= { error };
      }
    };
    attempt(() => backup.close());
    attempt(() => restore.close());
    attempt(() => selfMetrics?.leave(member));
    if (unbound) {
      const operations = backup.pendingOperations + restore.pendingOperations;
      const runs = backup.pendingRuns + restore.pendingRuns;
      if (operations + runs > 0) diagnostics.neverExported(operations, runs);
    }
    return failure === undefined ? Promise.resolve() : Promise.reject(failure.error);
  };
  let closing: Promise<void> | undefined;
  return {
    backup: backup.root,
    restore: restore.root,
    flush(): void {
      if (follow()) flushFamilies();
    },
    shutdown(): Promise<void> {
      closing ??= close();
      return closing;
    },
  };
}
