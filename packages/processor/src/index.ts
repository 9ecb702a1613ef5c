export { createBackupStats } from './backup-stats.js';
export { meterIterable } from './io/meter-iterable.js';
export { meterReadable } from './io/meter-readable.js';
export { type MeterTransformOptions, meterTransform } from './io/meter-transform.js';
export { meterWritable } from './io/meter-writable.js';
export { type TimedOptions, timeAsync, timeSync } from './io/timed.js';
export type { MeterOptions } from './io/timing-sample.js';
export { Component, Implementation, Operation, type ResolvedLabels, type ScopeLabels, UNSET } from './labels.js';
export { createNoopBackupStats, noopStats } from './noop-stats.js';
export type { BackupStatsOptions } from './options.js';
export {
  createRecordingStats,
  type RecordedCall,
  type RecordedRun,
  type RecordedTotals,
  type RecordingStats,
} from './recording-stats.js';
export type { Run, RunOutcome } from './run.js';
export { RunFailure, type RunFailureReason } from './run-failure.js';
export { RUN_DURATION_BOUNDARIES } from './run-naming.js';
export { NAMINGS, type Naming } from './spec-types.js';
export type { BackupStats, Stats } from './stats.js';
export { type TrackRunOptions, trackRun } from './track-run.js';
export { METER_NAME, VERSION } from './version.js';
