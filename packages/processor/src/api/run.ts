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
}
