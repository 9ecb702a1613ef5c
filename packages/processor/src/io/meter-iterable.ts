import { requireStats } from '../diagnostics/arguments.js';
import { notAcceptedArgument } from '../diagnostics/error-messages.js';
import type { Stats } from '../stats.js';
import { byteLengthOf } from './byte-length.js';

/**
 * Yields what `source` yields, unchanged, recording each item on `stats` as one operation with its bytes and
 * the time spent waiting for it (from the consumer asking for the next item to its arrival; time the consumer
 * spends on an item is not counted). Ending early (`break`, `return()`) or an error closes `source` as a
 * `for await` would, so a Readable given as source is destroyed as usual.
 *
 * Use it on any async or sync iterable, for example as a `stream.pipeline` stage:
 * `pipeline(source, (chunks) => meterIterable(chunks, stats), destination)`. The clock is `performance.now()`
 * of the global `performance` object as it is when the iteration starts.
 *
 * @throws TypeError at the call when `source` is not iterable or `stats` is not a {@link Stats}.
 */
export function meterIterable<T>(
  source: AsyncIterable<T> | Iterable<T>,
  stats: Stats,
): AsyncGenerator<T, void, undefined> {
  const iterable = source as Partial<AsyncIterable<T> & Iterable<T>> | null | undefined;
  if (typeof iterable?.[Symbol.asyncIterator] !== 'function' && typeof iterable?.[Symbol.iterator] !== 'function') {
    throw notAcceptedArgument(
      'meterIterable',
      'source',
      source,
      'an async or sync iterable (a Readable, a generator, an array)',
    );
  }
  requireStats('meterIterable', stats);
  return metered(source, stats);
}

async function* metered<T>(source: AsyncIterable<T> | Iterable<T>, stats: Stats): AsyncGenerator<T, void, undefined> {
  // Read once: the global is an accessor, and going through it costs more per item than the check it does.
  const clock = performance;
  let start = clock.now();
  for await (const item of source) {
    stats.timedIncrementBytes(byteLengthOf(item), clock.now() - start);
    yield item;
    start = clock.now();
  }
}
