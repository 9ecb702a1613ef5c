/**
 * The OpenTelemetry side built from the `OTEL_*` and `BACKUPSTATS_*` variables, and the end of a job
 * without losing what it recorded.
 *
 * @module backupstats/setup
 */
export type { Env } from './env/env.js';
export { exitAfterShutdown, type ShutdownOnExitOptions, type ShutdownTarget, shutdownOnExit } from './exit/exit.js';
export { type StartedBackupStats, startBackupStats } from './start.js';
export type { StartBackupStatsOptions } from './start-options.js';
