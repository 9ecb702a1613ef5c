export type { WorkerLink, WorkerLinkOptions } from '../api/link-types.js';
export { connectBackupStats, type WorkerBackupStats } from './connect.js';
