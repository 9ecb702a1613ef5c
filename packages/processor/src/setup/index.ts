export type { Env } from './env/env.js';
export { exitAfterShutdown, type ShutdownOnExitOptions, type ShutdownTarget, shutdownOnExit } from './exit/exit.js';
export { type StartBackupStatsOptions, type StartedBackupStats, startBackupStats } from './start.js';
