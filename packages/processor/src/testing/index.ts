/**
 * Stats for tests and disabled metrics: stats that record nothing, and stats that keep every call, and the values a
 * test names to find what the library recorded (the value of an unset label, the metrics' instrumentation scope).
 *
 * @module backupstats/testing
 */
// The null stats live in instance/, since set-up and the worker entry hand them out too; no source folder imports
// testing/.
export { UNSET } from '../api/labels.js';
export { METER_NAME, VERSION } from '../api/version.js';
export { noopStats } from '../instance/null-stats.js';
export {
  createRecordingStats,
  type RecordedCall,
  type RecordedRun,
  type RecordedTotals,
  type RecordingStats,
} from './recording-stats.js';
