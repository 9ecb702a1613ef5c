export type { Env } from './env.js';
export { exitAfterShutdown, type ShutdownOnExitOptions, type ShutdownTarget, shutdownOnExit } from './exit.js';
export { type StartBackupStatsOptions, type StartedBackupStats, startBackupStats } from './start.js';
