// `backupstats/testing`: the null stats and the recording double for users' tests. The null stats live in
// instance/, since set-up and the worker entry hand them out too; no source folder imports testing/.
export { noopStats } from '../instance/null-stats.js';
export {
  createRecordingStats,
  type RecordedCall,
  type RecordedRun,
  type RecordedTotals,
  type RecordingStats,
} from './recording-stats.js';
