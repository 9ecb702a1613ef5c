import type { BackupStats } from '../api/stats.js';
import { reportNotWritten } from '../diagnostics/messages.js';

/**
 * Writes the report page of `stats` to `path` (from `BACKUPSTATS_REPORT_PATH`) once they are shut down, so that it
 * holds every run, the interrupted ones too. `backupstats/report` is loaded only then: a job without the variable
 * never loads the page and its chart library. A failure is reported, never thrown: the export matters more.
 */
export async function writeReportAtShutdown(
  stats: BackupStats,
  path: string | undefined,
  quiet: boolean,
): Promise<void> {
  if (path === undefined) return;
  try {
    const { writeReport } = await import('../report/index.js');
    await writeReport(stats, path);
  } catch (error) {
    reportNotWritten(path, error, quiet);
  }
}
