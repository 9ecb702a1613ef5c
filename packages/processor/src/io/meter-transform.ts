import type { Transform, TransformCallback } from 'node:stream';
import type { Stats } from '../stats.js';
import { byteLengthOf } from './byte-length.js';

/** Options of {@link meterTransform}. */
export interface MeterTransformOptions {
  /**
   * Where to record the stage's final flush (`_flush`, for example a compressor writing its last block) as one
   * operation with its duration, as Vitess records `Compressor:Close`. Not recorded when left out.
   */
  readonly flush?: Stats | undefined;
}

/**
 * Meters a Transform in place and returns it: every chunk it takes in is recorded on `stats` as one operation
 * with the chunk's bytes (input side) and the time the transform spent on it (from `_transform` to its
 * callback, which excludes time spent waiting for a slow reader). A failed chunk records nothing. The chunks
 * a stage feeds itself while flushing (zlib does) are part of the flush, not chunks.
 *
 * No stream is added: the same object comes back, so data, errors, backpressure and `destroy()` are the
 * stream's own. Works inside `stream.pipeline`. To also time the output side as a reader sees it (Vitess's
 * `Decompressor:Read`), use {@link meterReadable} on the same stream.
 */
export function meterTransform<T extends Transform>(stream: T, stats: Stats, options: MeterTransformOptions = {}): T {
  let start = 0;
  let bytes = 0;
  let callback: TransformCallback = noop;
  let flushing = false;
  const done = (error?: Error | null, data?: unknown): void => {
    const next = callback;
    if (error === undefined || error === null) stats.timedIncrementBytes(bytes, performance.now() - start);
    next(error, data);
  };

  const transform = stream._transform;
  stream._transform = function meteredTransform(
    this: Transform,
    chunk: unknown,
    encoding: BufferEncoding,
    cb: TransformCallback,
  ): void {
    if (flushing) {
      transform.call(this, chunk, encoding, cb);
      return;
    }
    callback = cb;
    bytes = byteLengthOf(chunk, encoding);
    start = performance.now();
    transform.call(this, chunk, encoding, done);
  };

  const flush = stream._flush;
  if (typeof flush === 'function') {
    const flushStats = options.flush;
    stream._flush = function meteredFlush(this: Transform, cb: TransformCallback): void {
      flushing = true;
      const begin = flushStats === undefined ? 0 : performance.now();
      // Once per stream: a closure here costs nothing on the per-chunk path.
      flush.call(this, (error?: Error | null, data?: unknown) => {
        flushing = false;
        if (flushStats !== undefined && (error === undefined || error === null)) {
          flushStats.timedIncrement(performance.now() - begin);
        }
        cb(error, data);
      });
    };
  }
  return stream;
}

function noop(): void {}
