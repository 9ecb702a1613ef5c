// @ts-nocheck
export type { Env } from './env/env.js';
export { exitAfterShutdown, type ShutdownOnExitOptions, type ShutdownTarget, shutdownOnExit } from './exit/exit.js';
export { type StartedBackupStats, startBackupStats } from './start.js';
export type { StartBackupStatsOptions } from './start-options.js';
