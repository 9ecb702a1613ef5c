import type { Readable } from 'node:stream';
import type { Stats } from '../stats.js';
import { byteLengthOf } from './byte-length.js';

/**
 * Meters a Readable in place and returns it: every chunk it produces is recorded on `stats` as one operation
 * with its bytes and the time the stream made its reader wait for it (from the read request, or from the
 * previous chunk when several come for one request, to the chunk's arrival). The end of the stream is not an
 * operation.
 *
 * No stream is added: the same object comes back, so data, errors, backpressure, `destroy()` and
 * `highWaterMark` are the stream's own. It works with every Readable built on Node's `_read()` / `push()`
 * contract (files, sockets, zlib, `Readable.from`, a `Transform`'s readable side), inside `stream.pipeline` or
 * not. Per chunk it costs at most two clock reads and one record on the held handle.
 */
export function meterReadable<T extends Readable>(stream: T, stats: Stats): T {
  const read = stream._read;
  const push = stream.push;
  // A string pushed without an encoding is encoded with the stream's `defaultEncoding` (hex, latin1, base64…),
  // which Node keeps only in its internal state; it cannot change after construction. Object mode keeps strings.
  const state = (stream as { _readableState?: { defaultEncoding?: unknown; objectMode?: unknown } })._readableState;
  const defaultEncoding =
    state !== undefined && state.objectMode !== true && typeof state.defaultEncoding === 'string' ? (state.defaultEncoding as BufferEncoding) : undefined;
  let start = performance.now();
  stream._read = function meteredRead(this: Readable, size: number): void {
    start = performance.now();
    read.call(this, size);
  };
  stream.push = function meteredPush(this: Readable, chunk: unknown, encoding?: BufferEncoding): boolean {
    if (chunk !== null && chunk !== undefined) {
      // One clock read ends this chunk's wait and starts the next one's.
      const now = performance.now();
      stats.timedIncrementBytes(byteLengthOf(chunk, encoding || defaultEncoding), now - start);
      start = now;
    }
    return push.call(this, chunk, encoding);
  };
  return stream;
}
