/**
 * Recording in worker threads into a link made by the main thread's stats.
 *
 * @module backupstats/worker
 */
export type { WorkerLink, WorkerLinkOptions } from '../api/link-types.js';
export { connectBackupStats, type WorkerBackupStats } from './connect.js';
