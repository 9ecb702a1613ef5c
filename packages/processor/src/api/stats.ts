import type { ScopeLabels } from './labels.js';
import type { WorkerLink, WorkerLinkOptions } from './link-types.js';
import type { Run, RunOptions } from './run.js';

/**
 * Records the measurements of one family (backup, restore, verify or prune) for one combination of labels.
 *
 * Hold the handle that {@link Stats.scope} returns and record on it: recording only adds to numbers the
 * handle owns, so it costs nanoseconds. Recording never throws; invalid values are dropped and counted.
 */
export interface Stats {
  /**
   * Returns the handle for these labels on top of this handle's own. Labels already set keep their value.
   * The same labels give the same handle, so calling it again is cheap, but holding the handle is cheaper.
   */
  scope(labels: ScopeLabels): Stats;
  /**
   * Records one operation that took `durationMillis` milliseconds. `weight` (default 1) is for sampled timing:
   * the duration was measured on this operation as the sample of `weight` operations, so the summed time adds
   * `durationMillis × weight`; `0` for an operation that was not timed (counted, no time). The count always adds 1.
   * A weight that is not a whole number from 0 to 65,536 (the largest block the stream meters sample) drops the
   * record as invalid.
   */
  timedIncrement(durationMillis: number, weight?: number): void;
  /** Records one operation that moved `bytes` bytes in `durationMillis` milliseconds; `weight` as in {@link timedIncrement}. */
  timedIncrementBytes(bytes: number, durationMillis: number, weight?: number): void;
  /**
   * Starts one run (a backup, a restore, a verification, a prune), recorded with this handle's labels when it ends:
   * its outcome, its duration, and for a success its end time and bytes. Reads the clock now and when the run ends,
   * and at no other time.
   * A run still in progress when the stats shut down ends as a {@link backupstats!RunFailure.Interrupted} failure.
   * To wrap an async function, use {@link backupstats!trackRun}. With `options.expectedBytes` it also exports its progress, read at
   * each flush (and the wall clock read once at its start).
   *
   * @throws TypeError when an option is not what it accepts.
   */
  startRun(options?: RunOptions): Run;
}

/** The families of measurements and the controls of their export. */
export interface BackupStats {
  /** Measurements of backups. */
  readonly backup: Stats;
  /** Measurements of restores. */
  readonly restore: Stats;
  /** Measurements of verifications: checks of a backup's integrity, restore drills. */
  readonly verify: Stats;
  /**
   * Measurements of prunes, which delete old backups by a retention policy. Record each deletion as the operation
   * `Prune:Delete` with the bytes it freed, so that the family's bytes of that operation are the bytes reclaimed.
   */
  readonly prune: Stats;
  /**
   * Adds every pending measurement to the OpenTelemetry instruments now.
   *
   * @throws the first error an instrument threw. Each number is added at most once: what an instrument did not
   *   take stays pending for the next flush, and the other scopes are flushed all the same.
   */
  flush(): void;
  /**
   * Ends the runs still in progress as {@link RunFailure.Interrupted} failures, flushes, stops the timer and
   * detaches from the Meter (the gauges of the last runs keep their values in later exports, so that the
   * provider's final export carries them). Recording afterwards is ignored (reported once through `diag`).
   * Does not shut down the MeterProvider, which belongs to the caller. Never throws: if an instrument throws, it
   * still closes everything and rejects with that error (what could not be added is lost, and reported through
   * `diag`). Calling it again returns the same promise.
   */
  shutdown(): Promise<void>;
  /**
   * Shared memory for worker threads: pass the link in `workerData` or `postMessage` (no transfer list), and
   * `connectBackupStats(link)` from `backupstats/worker` gives the worker handles whose records this instance reads
   * at its flushes and exports as its own (the same series for the same labels). One link serves
   * `options.workers` threads at once (default 128, so one link serves a whole pool); docs/workers.md says how it
   * works and what it costs.
   *
   * @throws TypeError when an option is invalid, or when the system refuses the link's memory (`workers` places of
   *   `maxScopes` slots).
   */
  workerLink(options?: WorkerLinkOptions): WorkerLink;
}
