/** The version of the report's JSON: raised when a field changes meaning or goes away (new fields keep it). */
export const REPORT_VERSION = 1;

/** The labels of one series. */
export interface ReportLabels {
  /** `backup`, `restore`, `verify` or `prune`. */
  readonly family: 'backup' | 'restore' | 'verify' | 'prune';
  /** The `component` label. */
  readonly component: string;
  /** The `implementation` label. */
  readonly implementation: string;
  /** The `operation` label. */
  readonly operation: string;
}

/** Where one run's time went in one stage (series) of its family. */
export interface ReportStage extends ReportLabels {
  /** Operations of the stage during the run. */
  readonly count: number;
  /** Bytes of the stage during the run. */
  readonly bytes: number;
  /** Time the stage's operations took during the run, summed (over threads too). */
  readonly seconds: number;
  /** `seconds` over the run's duration: above 1 when several threads worked in the stage at once. */
  readonly busyShare: number;
}

/** The stage whose busy share was highest, which bounds the run's throughput when the stages run concurrently. */
export interface ReportBottleneck extends ReportLabels {
  /** The stage's busy share (see {@link ReportStage.busyShare}). */
  readonly busyShare: number;
  /** For example "Compressor:Write was busy 94 % of the run: this backup is bound by compression". */
  readonly sentence: string;
}

/** One ended run. */
export interface ReportRun extends ReportLabels {
  /** How the run ended. */
  readonly outcome: 'success' | 'failure' | 'partial';
  /** The reason of a failure or a partial end (one of `RunFailure`), else null. */
  readonly reason: string | null;
  /** Unix ms. */
  readonly startedAt: number;
  /** Unix ms. */
  readonly endedAt: number;
  /** The run's duration. */
  readonly seconds: number;
  /** The bytes a success or a partial end was given (what the run read), else null. */
  readonly bytes: number | null;
  /** The bytes the run stored: given at its end, or its family's `Destination:Write` bytes while it ran alone; else null. */
  readonly storedBytes: number | null;
  /** `storedBytes / bytes` (below 1 when compression or deduplication saved space), else null. */
  readonly storedRatio: number | null;
  /** `bytes / seconds`, else null. */
  readonly bytesPerSecond: number | null;
  /**
   * The stages that moved during the run, busiest first, at most 24 (the run's own series and
   * whole-run operations left out; the bottleneck is chosen among all of them).
   */
  readonly stages: readonly ReportStage[];
  /** The stage with the highest busy share, or null when no stage moved. */
  readonly bottleneck: ReportBottleneck | null;
}

/** One series' totals as exported, and its latency quantiles (seconds) when the stats keep histograms. */
export interface ReportSeries extends ReportLabels {
  /** True for the overflow series, which holds the label combinations past `maxScopes`. */
  readonly overflow: boolean;
  /** Operations, as exported. */
  readonly count: number;
  /** Bytes, as exported. */
  readonly bytes: number;
  /** Time, as exported. */
  readonly seconds: number;
  /** Median latency in seconds, or null without histograms. */
  readonly p50: number | null;
  /** 90th percentile latency in seconds, or null without histograms. */
  readonly p90: number | null;
  /** 99th percentile latency in seconds, or null without histograms. */
  readonly p99: number | null;
}

/** Stages a run lists at most: its busiest. */
export const RUN_STAGES = 24;

/** Operations the timelines and latency distributions show at most: those with the most time, or operations. */
export const CHARTED_OPERATIONS = 16;

/** Throughput and busy share over time of one operation (its series of one family summed). */
export interface ReportOperationTimeline {
  /** `backup`, `restore`, `verify` or `prune`. */
  readonly family: 'backup' | 'restore' | 'verify' | 'prune';
  /** The `operation` label. */
  readonly operation: string;
  /** Per interval ending at `times[i]` (the first is null). */
  readonly bytesPerSecond: readonly (number | null)[];
  /** Time spent in the operation per second of wall-clock time, per interval ending at `times[i]` (the first is null). */
  readonly busyShare: readonly (number | null)[];
}

/** The latency distribution of one operation (its series of one family), from the explicit buckets. */
export interface ReportLatency {
  /** `backup`, `restore`, `verify` or `prune`. */
  readonly family: 'backup' | 'restore' | 'verify' | 'prune';
  /** The `operation` label. */
  readonly operation: string;
  /** Operations in the distribution. */
  readonly count: number;
  /** Median latency, seconds. */
  readonly p50: number;
  /** 90th percentile latency, seconds. */
  readonly p90: number;
  /** 99th percentile latency, seconds. */
  readonly p99: number;
  /** Operations per bucket: bucket i is (boundaries[i - 1], boundaries[i]], the last one above every boundary. */
  readonly counts: readonly number[];
}

/** S3 request attempts (`AWS:Request:*` series of every family summed). */
export interface ReportS3 {
  /** Request attempts (`AWS:Request:Send`). */
  readonly attempts: number;
  /** Attempts that failed (`AWS:Request:Failed`). */
  readonly failed: number;
  /** Attempts the service throttled (`AWS:Request:Throttled`). */
  readonly throttled: number;
  /** Bytes of the attempts' bodies. */
  readonly bytes: number;
  /** Time of the attempts. */
  readonly seconds: number;
}

/** The request attempts to one storage implementation (`AWS:Request:*` or `HTTP:Request:*`, both families summed). */
export interface ReportStorage {
  /** The `implementation` label: `S3`, `Azure`, `GCS`, `HTTP`, … */
  readonly implementation: string;
  /** Request attempts (`AWS:Request:Send`, `HTTP:Request:Send`). */
  readonly attempts: number;
  /** Attempts that failed (`*:Request:Failed`). */
  readonly failed: number;
  /** Attempts the service throttled (`*:Request:Throttled`). */
  readonly throttled: number;
  /** Bytes of the attempts' bodies. */
  readonly bytes: number;
  /** Time of the attempts. */
  readonly seconds: number;
}

/** The JSON a report page carries in `<script type="application/json" id="backupstats-report">`. */
export interface BackupStatsReport {
  /** Always `backupstats-report`. */
  readonly schema: 'backupstats-report';
  /** The schema's version, {@link REPORT_VERSION}. */
  readonly version: typeof REPORT_VERSION;
  /** The library that made the report. */
  readonly library: {
    /** Always `backupstats`. */
    readonly name: 'backupstats';
    /** The library's version. */
    readonly version: string;
  };
  /** Unix ms: when the stats were created. */
  readonly createdAt: number;
  /** Unix ms: when the report was made. */
  readonly generatedAt: number;
  /** False for stats that keep no timeline (`flushIntervalMillis: 0`). */
  readonly timelineKept: boolean;
  /** The ended runs, oldest first. */
  readonly runs: readonly ReportRun[];
  /** Every series flushed at least once. */
  readonly series: readonly ReportSeries[];
  /** Sample times (Unix ms) shared by every operation's timeline (at most 120). */
  readonly times: readonly number[];
  /** The 16 operations (of a family) with the most time. */
  readonly timelines: readonly ReportOperationTimeline[];
  /** The explicit bucket boundaries (seconds) of {@link latency}; empty when the stats keep no histograms. */
  readonly boundaries: readonly number[];
  /** The 16 operations (of a family) with the most operations. */
  readonly latency: readonly ReportLatency[];
  /** S3 request attempts, or null when there were none. */
  readonly s3: ReportS3 | null;
  /** Request attempts per storage implementation (S3, Azure, GCS, …), most attempts first; empty when none. */
  readonly storage: readonly ReportStorage[];
}
