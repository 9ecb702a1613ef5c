import type { RunFailureReason } from './run-failure.js';

/** How a run ended: `partial` is done with parts left out or failed (Velero's `PartiallyFailed`). */
export type RunOutcome = 'success' | 'failure' | 'partial';

/** What a run's end may say besides the bytes it read: the second argument of {@link Run.succeed}. */
export interface RunEndDetails {
  /**
   * The bytes the run stored (after compression and deduplication), a number from 0 up. Left out, they are the
   * bytes its family's `Destination:Write` series recorded while it was the only run of its family in progress.
   */
  readonly storedBytes?: number | undefined;
}

/**
 * One run in progress (a backup, a restore, a verification, a prune), from {@link Stats.startRun}. It read the clock
 * once when it started and reads it again when it ends; ending it records the run, its outcome and duration on the
 * handle it was started from. Only the first end counts: later calls are ignored, as are runs ended after the stats
 * were shut down (the shutdown ended them as {@link RunFailure.Interrupted} failures). Never throws.
 */
export interface Run {
  /**
   * Ends the run as a success. `bytes` is what it read (backed up, restored, verified, pruned), kept as the bytes
   * of the last successful run; left out, that gauge shows nothing for this handle until a success gives it (an
   * invalid number is dropped and counted, the success still counts). The bytes it stored are
   * `details.storedBytes`, or else those its family's `Destination:Write` series recorded while it was the only run
   * of its family in progress (none when another overlapped it), kept as the stored bytes of the last success.
   */
  succeed(bytes?: number, details?: RunEndDetails): void;
  /** Ends the run as a failure; `reason` left out, or not one of {@link RunFailure}, records {@link RunFailure.Other}. */
  fail(reason?: RunFailureReason): void;
  /**
   * Ends the run as done in part, with outcome `partial`: a backup that skipped files that vanished while it ran,
   * a prune that could not delete every expired backup. `reason` (as for {@link fail}) says what was left out;
   * `bytes` and `details` are what it read and stored, shown in the report. It counts in the runs by outcome and
   * sets the last partial run's end time; it moves neither the last success nor the last failure.
   */
  partial(reason?: RunFailureReason, bytes?: number, details?: RunEndDetails): void;
  /**
   * Counts a warning of this run in progress (a file that vanished, a retried upload) by `reason` (as for
   * {@link fail}), whatever its outcome will be. Ignored once the run ended.
   */
  warn(reason?: RunFailureReason): void;
  /**
   * Names the run's current phase (as Vitess's `vtbackup_phase`: `'restore'`, `'upload'`...), exported with the
   * attribute `phase` as 1 while it is current and 0 once another phase or the run's end followed. A name that is
   * not a string of 1 to 64 characters, or a 17th distinct phase on one handle, is dropped and counted as invalid.
   */
  phase(name: string): void;
  /**
   * Gives a run in progress its expected size once it knows it (after listing what it backs up, or reading a
   * manifest), as `startRun({ expectedBytes })` does at the start: its progress counts from the run's start. Once
   * a run has a size, later calls are ignored; a size that `expectedBytes` would refuse is dropped and counted as
   * invalid (this never throws).
   */
  expectBytes(bytes: number, progressOperation?: string): void;
}

/** Options of {@link Stats.startRun}. */
export interface RunOptions {
  /**
   * The bytes the run is expected to move (a number from 0 up). Given, the run exports while it is in progress
   * how far it is, the time left at its recent throughput and when it last moved (docs/runs-and-alerts.md).
   */
  readonly expectedBytes?: number | undefined;
  /**
   * The operation whose bytes count as the run's progress: every series of the run's family with this operation
   * (default `Source:Read`, the bytes read from what is backed up or restored), whatever its other labels.
   */
  readonly progressOperation?: string | undefined;
}
