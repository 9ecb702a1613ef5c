import type { Transform, TransformCallback } from 'node:stream';
import type { Stats } from '../api/stats.js';
import { optionsOf, requireStats } from '../base/arguments.js';
import { ERROR_CODES } from '../base/errors.js';
import { byteLengthOf } from '../base/values.js';
import { type FlushFunction, type OperationFunction, OperationMeter } from './operation-meter.js';
import { keepMeter, keepOwn, OWN_WRITE, requireTransform, requireUnmetered, WRITE_METER } from './stream-checks.js';
import { type MeterOptions, OPTIONS_EXAMPLE, timeOneInOf } from './timing-sample.js';
import { writableStateOf } from './writable-drain.js';

/** Options of {@link meterTransform}. */
export interface MeterTransformOptions extends MeterOptions {
  /**
   * Where to record the stage's final flush (`_flush`, for example a compressor writing its last block) as one
   * operation with its duration, as Vitess records `Compressor:Close`. Not recorded when left out.
   */
  readonly flush?: Stats | undefined;
}

/**
 * Meters a Transform in place and returns it: every chunk it takes in is recorded on `stats` as one operation
 * with the chunk's bytes (input side) and the time the transform spent on it, from the moment Node starts the
 * chunk to its callback, which excludes time spent waiting for a slow reader. Node starts a chunk when it
 * hands it to `_transform`, or, for a chunk that waited in the stream's input buffer, when the previous
 * chunk's callback runs without data (the transform pushed its output itself, as zlib does): Node then calls
 * `_transform` for it before any other code runs, and one clock read serves both. A callback that carries
 * data makes Node push it first, which can run the next stages, so the next chunk then takes its own clock
 * read. Output the transform pushes before its callback, and what that push runs synchronously in the next
 * stages, is part of its time. A failed chunk records nothing. The chunks a stage feeds itself while
 * flushing (zlib does) are part of the flush, not chunks.
 *
 * No stream is added: the same object comes back, so data, errors, backpressure and `destroy()` are the
 * stream's own. Works inside `stream.pipeline`. Per chunk it costs one record and two clock reads, or one for
 * a chunk started by the previous chunk's callback; no closure or object is made per chunk, and the wrappers
 * are the same functions for every stream. To also time the
 * output side as a reader sees it (Vitess's `Decompressor:Read`), use {@link meterReadable} on the same
 * stream. The clock is `performance.now()` of the global `performance` object as it is when the stream is
 * metered. With `options.timeOneIn` set to N, one chunk in N (on average) is timed and stands for the others
 * ({@link MeterOptions.timeOneIn}); the flush is always timed.
 *
 * @throws TypeError when `options.timeOneIn` is not an integer from 1 to 65536.
 */
export function meterTransform<T extends Transform>(stream: T, stats: Stats, options?: MeterTransformOptions): T {
  requireTransform('meterTransform', stream);
  requireStats(ERROR_CODES.INVALID_ARGUMENT, 'meterTransform', stats);
  const given = optionsOf('meterTransform', options, `${OPTIONS_EXAMPLE.slice(0, -2)}, flush: stats }`, [
    'timeOneIn',
    'flush',
  ]);
  const every = timeOneInOf(given, 'meterTransform');
  const flushStats = given.flush;
  if (flushStats !== undefined) requireStats(ERROR_CODES.INVALID_OPTION, 'meterTransform', flushStats, 'option flush');
  requireUnmetered('meterTransform', stream, 'write');
  // Stryker disable next-line StringLiteral: the callbacks of both kinds behave alike
  const meter = new OperationMeter(stats, writableStateOf(stream), every, 'transform');
  keepOwn(stream, OWN_WRITE, stream._transform);
  stream._transform = meteredTransform;
  const flush = stream._flush;
  if (typeof flush === 'function') {
    meter.flush = flush as FlushFunction;
    meter.flushStats = flushStats;
    stream._flush = meteredFlush;
  }
  keepMeter(stream, 'write', meter);
  return stream;
}

/** What the shared wrappers read off a metered Transform. */
type MeteredTransform = Transform & {
  readonly [WRITE_METER]: OperationMeter;
  readonly [OWN_WRITE]: OperationFunction;
};

// One function for every metered stream, for the reason meterWritable's wrappers are.
function meteredTransform(
  this: MeteredTransform,
  chunk: unknown,
  encoding: BufferEncoding,
  cb: TransformCallback,
): void {
  const meter = this[WRITE_METER];
  if (meter.flushing) {
    this[OWN_WRITE](chunk, encoding, cb);
    return;
  }
  meter.begin(byteLengthOf(chunk, encoding), cb);
  this[OWN_WRITE](chunk, encoding, meter.done);
  meter.sync = false;
}

function meteredFlush(this: MeteredTransform, cb: TransformCallback): void {
  const meter = this[WRITE_METER];
  meter.flushing = true;
  const flushStats = meter.flushStats;
  const begin = flushStats === undefined ? 0 : meter.clock.now();
  // Once per stream: a closure here costs nothing on the per-chunk path.
  meter.flush.call(this, (error?: Error | null, data?: unknown) => {
    // Stryker disable next-line BooleanLiteral: it runs in _flush's callback, after which no chunk comes
    meter.flushing = false;
    if (flushStats !== undefined && (error === undefined || error === null)) {
      flushStats.timedIncrement(meter.clock.now() - begin);
    }
    cb(error, data);
  });
}
