import type { BackupStats } from '../api/stats.js';
import { optionsOf } from '../base/arguments.js';
import {
  type BackupStatsOptions,
  CORE_OPTIONS,
  OPTIONS_EXAMPLE,
  type ResolvedOptions,
  resolveOptions,
} from './options.js';
import { StatsInstance } from './stats-instance.js';

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
  const given = optionsOf('createBackupStats', options, OPTIONS_EXAMPLE, CORE_OPTIONS);
  const resolved = resolveOptions(given);
  return openBackupStats(resolved);
}

/** Creates the stats from options already resolved: `backupstats/setup` resolves them naming their variables. */
export function openBackupStats(resolved: ResolvedOptions): BackupStats {
  return new StatsInstance(resolved).stats;
}
