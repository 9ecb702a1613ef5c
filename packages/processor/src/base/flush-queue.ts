import type { FirstError } from './first-error.js';

/** Something whose pending numbers wait in a flush queue until they are added to `I`. */
export interface Pending<I> {
  /** Adds the pending numbers to the instruments; throws what an instrument throws, keeping what it did not take. */
  addTo(instruments: I): void;
}

/**
 * Adds every queued entry's numbers to `instruments` and empties the queue. An entry whose instrument throws stays
 * queued for the next flush, its error kept in `errors`; the others are flushed all the same.
 */
export function drainQueue<I>(queue: Pending<I>[], instruments: I, errors: FirstError): void {
  let kept = 0;
  for (let i = 0; i < queue.length; i++) {
    const entry = queue[i] as Pending<I>;
    if (!errors.attempt(() => entry.addTo(instruments))) queue[kept++] = entry;
  }
  queue.length = kept;
}
