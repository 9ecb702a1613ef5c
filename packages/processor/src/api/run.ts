import type { RunFailureReason } from './run-failure.js';

/** How a run ended. */
export type RunOutcome = 'success' | 'failure';

/**
 * One backup or restore run in progress, from {@link Stats.startRun}. It read the clock once when it started and
 * reads it again when it ends; ending it records the run, its outcome and duration on the handle it was started
 * from. Only the first end counts: later calls are ignored, as are runs ended after the stats were shut down
 * (the shutdown ended them as {@link RunFailure.Interrupted} failures). Never throws.
 */
export interface Run {
  /**
   * Ends the run as a success. `bytes` is what it backed up or restored, kept as the bytes of the last successful
   * run; left out, that gauge shows nothing for this handle until a success gives it (an invalid number is
   * dropped and counted, the success still counts).
   */
  succeed(bytes?: number): void;
  /** Ends the run as a failure; `reason` left out, or not one of {@link RunFailure}, records {@link RunFailure.Other}. */
  fail(reason?: RunFailureReason): void;
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
