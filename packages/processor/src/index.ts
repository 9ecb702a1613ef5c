export { createBackupStats } from './backup-stats.js';
export { createNoopBackupStats, noopStats } from './doubles/noop-stats.js';
export {
  createRecordingStats,
  type RecordedCall,
  type RecordedRun,
  type RecordedTotals,
  type RecordingStats,
} from './doubles/recording-stats.js';
export { DEFAULT_HISTOGRAM_BOUNDARIES } from './histogram/explicit-buckets.js';
export {
  createHistogramProducer,
  type HistogramAggregation,
  type HistogramProducer,
  type HistogramProducerOptions,
  type HistogramTemporality,
} from './histogram/histogram-producer.js';
export { meterIterable } from './io/meter-iterable.js';
export { meterReadable } from './io/meter-readable.js';
export { type MeterTransformOptions, meterTransform } from './io/meter-transform.js';
export { meterWritable } from './io/meter-writable.js';
export { type TimedOptions, timeAsync, timeSync } from './io/timed.js';
export type { MeterOptions } from './io/timing-sample.js';
export { Component, Implementation, Operation, type ResolvedLabels, type ScopeLabels, UNSET } from './labels.js';
export { NAMINGS, type Naming } from './naming/naming-types.js';
export { RUN_DURATION_BOUNDARIES } from './naming/run-naming.js';
export type { BackupStatsOptions } from './options.js';
export type { Run, RunOutcome } from './run.js';
export { RunFailure, type RunFailureReason } from './runs/run-failure.js';
export { type TrackRunOptions, trackRun } from './runs/track-run.js';
export type { BackupStats, Stats } from './stats.js';
export { METER_NAME, VERSION } from './version.js';
export type { WorkerLink, WorkerLinkOptions } from './worker/link-types.js';
