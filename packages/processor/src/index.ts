export { createBackupStats } from './backup-stats.js';
export { Component, Implementation, Operation, type ResolvedLabels, type ScopeLabels, UNSET } from './labels.js';
export { type Naming, NAMINGS } from './naming.js';
export { createNoopBackupStats, noopStats } from './noop-stats.js';
export type { BackupStatsOptions } from './options.js';
export {
  createRecordingStats,
  type RecordedCall,
  type RecordedTotals,
  type RecordingStats,
} from './recording-stats.js';
export type { BackupStats, Stats } from './stats.js';
export { METER_NAME, VERSION } from './version.js';
