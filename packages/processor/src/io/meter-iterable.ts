import type { Stats } from '../api/stats.js';
import { optionsOf, requireStats } from '../base/arguments.js';
import { ERROR_CODES, notAcceptedArgument } from '../base/errors.js';
import { byteLengthOf } from '../base/values.js';
import { METER_OPTIONS, type MeterOptions, OPTIONS_EXAMPLE, TimingSample, timeOneInOf } from './timing-sample.js';

/**
 * Yields what `source` yields, unchanged, recording each item on `stats` as one operation with its bytes and
 * the time spent waiting for it (from the consumer asking for the next item to its arrival; time the consumer
 * spends on an item is not counted). Ending early (`break`, `return()`) or an error closes `source` as a
 * `for await` would, so a Readable given as source is destroyed as usual.
 *
 * Use it on any async or sync iterable, for example as a `stream.pipeline` stage:
 * `pipeline(source, (chunks) => meterIterable(chunks, stats), destination)`. The clock is `performance.now()`
 * of the global `performance` object as it is when the iteration starts. `options.timeOneIn` chooses which
 * items are timed, as for the stream meters ({@link MeterOptions.timeOneIn}).
 *
 * @throws TypeError at the call when `source` is not iterable or `stats` is not a {@link Stats}.
 */
export function meterIterable<T>(
  source: AsyncIterable<T> | Iterable<T>,
  stats: Stats,
  options?: MeterOptions,
): AsyncGenerator<T, void, undefined> {
  const iterable = source as Partial<AsyncIterable<T> & Iterable<T>> | null | undefined;
  if (typeof iterable?.[Symbol.asyncIterator] !== 'function' && typeof iterable?.[Symbol.iterator] !== 'function') {
    throw notAcceptedArgument(
      ERROR_CODES.INVALID_ARGUMENT,
      'meterIterable',
      'source',
      source,
      'an async or sync iterable (a Readable, a generator, an array)',
    );
  }
  requireStats(ERROR_CODES.INVALID_ARGUMENT, 'meterIterable', stats);
  const every = timeOneInOf(optionsOf('meterIterable', options, OPTIONS_EXAMPLE, METER_OPTIONS), 'meterIterable');
  return metered(source, stats, every);
}

async function* metered<T>(
  source: AsyncIterable<T> | Iterable<T>,
  stats: Stats,
  every: number,
): AsyncGenerator<T, void, undefined> {
  const sample = new TimingSample(every, performance);
  const clock = sample.clock;
  // The wait for an item starts when the consumer asks for it: at the start, and each time it resumes.
  let start = sample.untimed === 0 ? clock.now() : 0;
  for await (const item of source) {
    if (sample.untimed > 0) {
      sample.untimed -= 1;
      stats.timedIncrementBytes(byteLengthOf(item), 0, 0);
    } else {
      const duration = clock.now() - start;
      stats.timedIncrementBytes(byteLengthOf(item), duration, sample.weight);
      sample.timed(duration);
    }
    yield item;
    if (sample.untimed === 0) start = clock.now();
  }
}
