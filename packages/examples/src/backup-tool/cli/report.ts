import { type ReportSeries, reportData, writeReport } from 'backupstats/report';
import type { Telemetry } from '../telemetry/start-telemetry.js';

/**
 * Writes the report page of the stats (every run's outcome, busy share per stage and bottleneck, throughput over
 * time, latency, S3) and says where it is and, for each run, what bounded it. A page that cannot be written is
 * reported on stderr: the backup itself went as it went.
 */
export async function writeDemoReport(telemetry: Telemetry, path: string, say: (line: string) => void): Promise<void> {
  // Disabled metrics (OTEL_SDK_DISABLED) give stats that keep nothing to report.
  if (telemetry.stats.meterProvider === undefined) return;
  try {
    const data = await writeReport(telemetry.stats, path);
    say('');
    for (const run of data.runs) {
      if (run.bottleneck !== null) say(`${run.family} ${run.outcome}: ${run.bottleneck.sentence}`);
    }
    say(`report: ${path}`);
  } catch (error) {
    process.stderr.write(`the report ${path} was not written: ${(error as Error).message}\n`);
  }
}

/** The report's series (their quantiles go into the summary); none when the metrics are disabled. */
export function reportSeries(telemetry: Telemetry): readonly ReportSeries[] {
  return telemetry.stats.meterProvider === undefined ? [] : reportData(telemetry.stats).series;
}
