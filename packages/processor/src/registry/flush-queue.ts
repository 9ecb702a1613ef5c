/** Something whose pending numbers wait in a flush queue until they are added to `I`. */
export interface Pending<I> {
  /** Adds the pending numbers to the instruments; throws what an instrument throws, keeping what it did not take. */
  addTo(instruments: I): void;
}

/**
 * Adds every queued entry's numbers to `instruments` and empties the queue. An entry whose instrument throws stays
 * queued for the next flush; the others are flushed all the same.
 *
 * @returns the first error an instrument threw, for the caller to throw once its own flush is done.
 */
export function drainQueue<I>(queue: Pending<I>[], instruments: I): { error: unknown } | undefined {
  let kept = 0;
  let failure: { error: unknown } | undefined;
  for (let i = 0; i < queue.length; i++) {
    const entry = queue[i] as Pending<I>;
    try {
      entry.addTo(instruments);
    } catch (error) {
      failure ??= { error };
      queue[kept++] = entry;
    }
  }
  queue.length = kept;
  return failure;
}
