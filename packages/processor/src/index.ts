/**
 * The core: the stats, their handles, the stream meters, runs and the label values. Imports only
 * `@opentelemetry/api`.
 *
 * @module backupstats
 */
export { Component, Implementation, Operation, type ResolvedLabels, type ScopeLabels } from './api/labels.js';
export type { WorkerLink, WorkerLinkOptions } from './api/link-types.js';
export type { Run, RunEndDetails, RunOptions, RunOutcome } from './api/run.js';
export { RunFailure, type RunFailureReason } from './api/run-failure.js';
export type { BackupStats, Stats } from './api/stats.js';
export { DEFAULT_HISTOGRAM_BOUNDARIES } from './histogram/explicit-buckets.js';
export {
  createHistogramProducer,
  type HistogramAggregation,
  type HistogramProducer,
  type HistogramProducerOptions,
  type HistogramTemporality,
} from './histogram/histogram-producer.js';
export { createBackupStats } from './instance/backup-stats.js';
export type { BackupStatsOptions } from './instance/options.js';
export { meterIterable } from './io/meter-iterable.js';
export { meterReadable } from './io/meter-readable.js';
export { type MeterTransformOptions, meterTransform } from './io/meter-transform.js';
export { meterWritable } from './io/meter-writable.js';
export { type TimedOptions, timeAsync, timeSync } from './io/timed.js';
export type { MeterOptions } from './io/timing-sample.js';
export type { Naming } from './naming/naming-types.js';
export { RUN_DURATION_BOUNDARIES } from './naming/run-naming.js';
export { type TrackRunOptions, trackRun } from './runs/track-run.js';
