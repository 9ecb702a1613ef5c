import { metrics } from '@opentelemetry/api';
import { optionsOf } from './diagnostics/arguments.js';
import { unknownOptions } from './diagnostics/diagnostics.js';
import { FirstError } from './diagnostics/first-error.js';
import { checkOneReaderEach } from './histogram/one-reader.js';
import {
  type BackupStatsOptions,
  CORE_OPTIONS,
  OPTIONS_EXAMPLE,
  type ResolvedOptions,
  resolveOptions,
} from './options.js';
import { startFlushTimer } from './state/flush-timer.js';
import { ProviderBinding } from './state/provider-binding.js';
import { StatsSharedState } from './state/stats-shared-state.js';
import type { BackupStats } from './stats.js';

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
export function createBackupStats(options?: BackupStatsOptions): BackupStats {
  const given = optionsOf('createBackupStats', options, OPTIONS_EXAMPLE);
  const resolved = resolveOptions(given);
  unknownOptions('createBackupStats', given, CORE_OPTIONS);
  return openBackupStats(resolved);
}

/**
 * Creates the stats from options already resolved: `backupstats/setup` resolves them naming their variables. The
 * parts: the shared state (both families' registries and diagnostics), the provider binding (the given or the
 * global provider, and the flush before every collection), and the timer.
 */
export function openBackupStats(resolved: ResolvedOptions): BackupStats {
  checkOneReaderEach(resolved.meterProvider ?? metrics.getMeterProvider(), resolved.histogramProducers);
  const state = new StatsSharedState(resolved);
  const binding = new ProviderBinding(state, resolved.meterProvider, resolved.metricPrefix);
  const stopTimer = startFlushTimer(resolved.flushIntervalMillis, binding, state);
  const [backup, restore] = state.families;

  // Closes everything even when an instrument or the Meter throws, and reports the first error by rejecting.
  // Closing ends the runs in progress, which then wait like the rest.
  const close = (): Promise<void> => {
    stopTimer();
    const bound = binding.stopFollowing();
    const errors = new FirstError();
    state.close(errors, bound);
    binding.leave(errors);
    return errors.settle();
  };
  let closing: Promise<void> | undefined;
  return {
    backup: backup.root,
    restore: restore.root,
    flush(): void {
      if (binding.follow()) state.flush();
    },
    shutdown(): Promise<void> {
      closing ??= close();
      return closing;
    },
    workerLink: (options) => state.workers.create(options),
  };
}
