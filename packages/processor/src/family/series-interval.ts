import type { Diagnostics } from '../diagnostics/diagnostics.js';
import type { Instruments, SeriesHandle } from '../series/series-handle.js';

// When a buffered series' numbers go to the instruments at once rather than at the next flush. The SDK starts a
// point at the series' first add in a reader's interval (or at the reader's previous collection, when the series
// was in it), and a collection takes its time before it drains what is pending: left to that drain, such a point
// would start after its end, and a series' start would be its first flush rather than its first record.

/**
 * True when a series' numbers go to the instruments at once: at its first record, and at the first record after it
 * has had no add through a whole collection (`collections` is the number of the current one); it then stays queued
 * for the records that follow. A series with an add since the collection before the latest has one in every reader's
 * interval already before this record, or was in every reader's previous collection. So a series recorded on
 * steadily is added at its flushes only; the others cost one add per instrument when they start or resume.
 */
export function opensInterval(handle: SeriesHandle, collections: number): boolean {
  return handle.addedIn === -1 || handle.addedIn < collections - 1;
}

/** Adds the numbers of a handle that {@link opensInterval} now, leaving it queued; reports a failure, never throws. */
export function openInterval(
  handle: SeriesHandle,
  instruments: Instruments,
  collections: number,
  diagnostics: Diagnostics,
): void {
  try {
    addNow(handle, instruments, collections);
  } catch (error) {
    diagnostics.flushFailed(error);
  }
  handle.queued = true;
}

/**
 * Adds the handle's numbers now, during collection number `collections`. At a series' first add its histogram
 * starts where its counters do: now, as the SDK reads it (the first add is at the first record, unless that record
 * was made before there were instruments).
 *
 * @throws what an instrument throws, the numbers it did not take left pending.
 */
export function addNow(handle: SeriesHandle, instruments: Instruments, collections: number): void {
  if (handle.addedIn === -1 && handle.histogram !== undefined) handle.histogram.startedAt = Date.now();
  handle.addTo(instruments);
  handle.addedIn = collections;
}
