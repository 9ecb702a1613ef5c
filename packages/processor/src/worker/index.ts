export { connectBackupStats, type WorkerBackupStats } from './connect.js';
export type { WorkerLink, WorkerLinkOptions } from './worker-link.js';
