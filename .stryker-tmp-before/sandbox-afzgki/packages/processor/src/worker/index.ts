// @ts-nocheck
export { connectBackupStats, type WorkerBackupStats } from './connect.js';
export type { WorkerLink, WorkerLinkOptions } from './link-types.js';