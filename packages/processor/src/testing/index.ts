/**
 * Stats for tests and disabled metrics: stats that record nothing, and stats that keep every call.
 *
 * @module backupstats/testing
 */
// `backupstats/testing`: the null stats and the recording double, an entry of their own so that the core
// (`backupstats`) carries no test double and imports none.
export { noopStats } from './null-stats.js';
export {
  createRecordingStats,
  type RecordedCall,
  type RecordedRun,
  type RecordedTotals,
  type RecordingStats,
} from './recording-stats.js';
