// `backupstats/testing`: the null stats and the recording double for users' tests, and the values a test names
// to find what the library recorded: the label value of an unset label, the instrumentation scope of its metrics.
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
