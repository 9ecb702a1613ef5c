/**
 * The HTML report of a process's runs: busy shares, the bottleneck, throughput and latency over time.
 *
 * @module backupstats/report
 */
import type { BackupStats } from '../api/stats.js';
import { removeStaleTemporaries, writeAtomically } from '../base/atomic-file.js';
import { ERROR_CODES, notAcceptedArgument } from '../base/errors.js';
import { type StatsTimeline, timelineOf } from '../timeline/stats-timeline.js';
import { buildReport } from './build-report.js';
import { renderReport } from './render-html.js';
import type { BackupStatsReport } from './report-schema.js';

export { bottleneckOf } from './bottleneck.js';
export type {
  BackupStatsReport,
  ReportBottleneck,
  ReportLabels,
  ReportLatency,
  ReportOperationTimeline,
  ReportRun,
  ReportS3,
  ReportSeries,
  ReportStage,
  ReportStorage,
} from './report-schema.js';
export { REPORT_VERSION } from './report-schema.js';
export { renderReport };

/**
 * The report's data for `stats` (from `createBackupStats` or `startBackupStats`), after a flush: each run's outcome,
 * duration, bytes, busy share per stage and bottleneck; every series' totals and quantiles; throughput and busy
 * share over time per operation; latency per operation; S3 attempts. The schema is docs/report.md's.
 *
 * @throws TypeError when `stats` are not stats of this library (no-op stats keep nothing to report).
 */
export function reportData(stats: BackupStats): BackupStatsReport {
  return buildReport(timelineFor('reportData', stats));
}

/**
 * Writes the report page of `stats` to `path` (a self-contained HTML file: the data as JSON, uPlot and the page's
 * script inlined, nothing loaded from the network), atomically. Resolves to the data it wrote. The writes of one
 * process to one path land in the order of the calls: the page of the latest call is the one left. The temporary
 * files beside `path` of processes killed in the middle of a write are removed.
 *
 * @throws TypeError (as a rejection) when `stats` are not stats of this library or `path` is no file path; rejects
 *   when the file cannot be written.
 */
export async function writeReport(stats: BackupStats, path: string): Promise<BackupStatsReport> {
  const timeline = timelineFor('writeReport', stats);
  if (typeof path !== 'string' || path.trim() === '') {
    throw notAcceptedArgument(
      ERROR_CODES.INVALID_ARGUMENT,
      'writeReport',
      'path',
      path,
      'the path of the HTML file to write',
    );
  }
  const data = buildReport(timeline);
  removeStaleTemporaries(path);
  await writeAtomically(path, renderReport(data));
  return data;
}

function timelineFor(fn: string, stats: BackupStats): StatsTimeline {
  const timeline = timelineOf(stats);
  if (timeline === undefined) {
    throw notAcceptedArgument(
      ERROR_CODES.INVALID_ARGUMENT,
      fn,
      'stats',
      stats,
      'stats from createBackupStats() or startBackupStats()',
    );
  }
  return timeline;
}
