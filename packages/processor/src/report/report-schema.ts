/** The version of the report's JSON: raised when a field changes meaning or goes away (new fields keep it). */
export const REPORT_VERSION = 1;

/** The labels of one series. */
export interface ReportLabels {
  readonly family: 'backup' | 'restore';
  readonly component: string;
  readonly implementation: string;
  readonly operation: string;
}

/** Where one run's time went in one stage (series) of its family. */
export interface ReportStage extends ReportLabels {
  readonly count: number;
  readonly bytes: number;
  /** Time the stage's operations took during the run, summed (over threads too). */
  readonly seconds: number;
  /** `seconds` over the run's duration: above 1 when several threads worked in the stage at once. */
  readonly busyShare: number;
}

/** The stage whose busy share was highest, which bounds the run's throughput when the stages run concurrently. */
export interface ReportBottleneck extends ReportLabels {
  readonly busyShare: number;
  /** For example "Compressor:Write was busy 94 % of the run: this backup is bound by compression". */
  readonly sentence: string;
}

/** One ended run. */
export interface ReportRun extends ReportLabels {
  readonly outcome: 'success' | 'failure';
  /** A failure's reason (one of `RunFailure`), else null. */
  readonly reason: string | null;
  /** Unix ms. */
  readonly startedAt: number;
  readonly endedAt: number;
  readonly seconds: number;
  /** The bytes a success was given, else null. */
  readonly bytes: number | null;
  /** `bytes / seconds`, else null. */
  readonly bytesPerSecond: number | null;
  /**
   * The stages that moved during the run, busiest first, at most {@link RUN_STAGES} (the run's own series and
   * whole-run operations left out; the bottleneck is chosen among all of them).
   */
  readonly stages: readonly ReportStage[];
  readonly bottleneck: ReportBottleneck | null;
}

/** One series' totals as exported, and its latency quantiles (seconds) when the stats keep histograms. */
export interface ReportSeries extends ReportLabels {
  readonly overflow: boolean;
  readonly count: number;
  readonly bytes: number;
  readonly seconds: number;
  readonly p50: number | null;
  readonly p90: number | null;
  readonly p99: number | null;
}

/** Stages a run lists at most: its busiest. */
export const RUN_STAGES = 24;

/** Operations the timelines and latency distributions show at most: those with the most time, or operations. */
export const CHARTED_OPERATIONS = 16;

/** Throughput and busy share over time of one operation (its series of one family summed). */
export interface ReportOperationTimeline {
  readonly family: 'backup' | 'restore';
  readonly operation: string;
  /** Per interval ending at `times[i]` (the first is null). */
  readonly bytesPerSecond: readonly (number | null)[];
  readonly busyShare: readonly (number | null)[];
}

/** The latency distribution of one operation (its series of one family), from the explicit buckets. */
export interface ReportLatency {
  readonly family: 'backup' | 'restore';
  readonly operation: string;
  readonly count: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  /** Operations per bucket: bucket i is (boundaries[i - 1], boundaries[i]], the last one above every boundary. */
  readonly counts: readonly number[];
}

/** S3 request attempts (`AWS:Request:*` series of both families summed). */
export interface ReportS3 {
  readonly attempts: number;
  readonly failed: number;
  readonly throttled: number;
  readonly bytes: number;
  readonly seconds: number;
}

/** The JSON a report page carries in `<script type="application/json" id="backupstats-report">`. */
export interface BackupStatsReport {
  readonly schema: 'backupstats-report';
  readonly version: typeof REPORT_VERSION;
  readonly library: { readonly name: 'backupstats'; readonly version: string };
  /** Unix ms: when the stats were created, and when the report was made. */
  readonly createdAt: number;
  readonly generatedAt: number;
  /** False for stats that keep no timeline (`flushIntervalMillis: 0`). */
  readonly timelineKept: boolean;
  readonly runs: readonly ReportRun[];
  readonly series: readonly ReportSeries[];
  /** Sample times (Unix ms) shared by every operation's timeline (at most 120). */
  readonly times: readonly number[];
  /** The {@link CHARTED_OPERATIONS} operations (of a family) with the most time. */
  readonly timelines: readonly ReportOperationTimeline[];
  /** The explicit bucket boundaries (seconds) of {@link latency}; empty when the stats keep no histograms. */
  readonly boundaries: readonly number[];
  /** The {@link CHARTED_OPERATIONS} operations (of a family) with the most operations. */
  readonly latency: readonly ReportLatency[];
  readonly s3: ReportS3 | null;
}
