/**
 * Why a run failed: a fixed vocabulary, so that the series of failed runs stay few and the same in every program
 * (dashboards and alerts can name them), and so that each one can be created at 0 before its first failure
 * (Prometheus's `increase()` does not count a series' first sample). Any other reason is recorded as
 * {@link RunFailure.Other}.
 *
 * @enum
 */
export const RunFailure = Object.freeze({
  /** The stats were shut down while the run was in progress: SIGTERM or SIGINT through `shutdownOnExit`, or a shutdown before the run ended. */
  Interrupted: 'interrupted',
  /** The run took too long and was given up. */
  Timeout: 'timeout',
  /** What the run reads could not be read: the files to back up, or the backup to restore. */
  Source: 'source',
  /** What the run writes could not be written: the backup storage, or the restore folder (full, read-only, denied). */
  Destination: 'destination',
  /** The data is damaged: a checksum that does not match, a corrupted or truncated archive, an unreadable manifest. */
  Corrupted: 'corrupted',
  /** The run was set up wrong: a bad setting, a missing bucket, credentials that are refused. */
  Configuration: 'configuration',
  /** Any other failure, a failure given no reason, and a reason outside this list (OpenTelemetry's fallback value for `error.type`). */
  Other: '_OTHER',
} as const);

/** One of the {@link RunFailure} values. */
export type RunFailureReason = (typeof RunFailure)[keyof typeof RunFailure];
