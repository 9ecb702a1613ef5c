import { isAmount, isWeight } from '../base/amount.js';
import { ScopeHandle, type ScopeLookup } from './scope-handle.js';

/** What a recording handle asks of its family, beside scoping: to count a dropped measurement. */
export interface RecordingOwner extends ScopeLookup {
  countInvalid(): void;
}

/**
 * A handle that records into numbers of its own: this thread's pending numbers ({@link SeriesHandle}) or a worker's
 * cells of shared memory (`SharedSeriesHandle`). Both check a record the same way and drop an invalid one the same
 * way; each adds a valid one where it keeps its numbers ({@link add}). A process records through one of the two
 * (the main thread through series handles, a worker through shared ones), so these call sites stay monomorphic.
 */
export abstract class RecordingHandle<Owner extends RecordingOwner = RecordingOwner> extends ScopeHandle<Owner> {
  timedIncrement(durationMillis: number, weight = 1): void {
    if (isAmount(durationMillis) && isWeight(weight)) {
      if (this.add(0, durationMillis, weight) || this.addPastBound(0, durationMillis, weight)) return;
    }
    this.owner.countInvalid();
  }

  timedIncrementBytes(bytes: number, durationMillis: number, weight = 1): void {
    if (isAmount(bytes) && isAmount(durationMillis) && isWeight(weight)) {
      if (this.add(bytes, durationMillis, weight) || this.addPastBound(bytes, durationMillis, weight)) return;
    }
    this.owner.countInvalid();
  }

  /**
   * Records one operation of `bytes` and no time, as `timedIncrementBytes(bytes, 0, 0)` does: the record of a stream
   * meter's untimed chunk. It takes fewer steps, and its body is small: the meters' calls are inlined into Node's
   * stream code, within one budget of bytecode per function. A record other than a valid one within the bound goes
   * through `timedIncrementBytes`.
   */
  countBytes(bytes: number): void {
    if (this.addBytes(bytes) === false) this.timedIncrementBytes(bytes, 0, 0);
  }

  /**
   * Adds one operation of `bytes` and no time; false, adding nothing, when `bytes` is not an amount or a sum would
   * pass MAX_PENDING.
   */
  protected abstract addBytes(bytes: number): boolean;

  /**
   * Adds one record of valid amounts (bytes and duration ≥ 0, a whole weight ≥ 0); false, adding nothing, when a sum would
   * pass MAX_PENDING.
   */
  protected abstract add(bytes: number, durationMillis: number, weight: number): boolean;

  /**
   * Adds a record of valid amounts that {@link add} refused because a sum would pass MAX_PENDING, if room can be
   * made for it; false, adding nothing, when none can. Called only past the bound, so it costs a record nothing.
   */
  protected abstract addPastBound(bytes: number, durationMillis: number, weight: number): boolean;
}
