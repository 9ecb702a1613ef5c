import { Writable } from 'node:stream';
import type { Stats } from '../stats.js';
import { byteLengthOf } from './byte-length.js';

type WriteCallback = (error?: Error | null) => void;
type WritevChunks = Array<{ chunk: unknown; encoding: BufferEncoding }>;

/**
 * Meters a Writable in place and returns it: every write the stream carries out is recorded on `stats` as
 * one operation with its bytes and the time from handing the data to the stream's `_write` to its callback.
 * A batched `_writev` (fs streams have one) is one operation carrying the bytes of all its chunks, as it is
 * one system call. A failed write records nothing.
 *
 * No stream is added: the same object comes back, so data, errors, backpressure (`highWaterMark`, `drain`)
 * and `destroy()` are the stream's own. Works inside `stream.pipeline`. Per write it costs two clock reads
 * and one record; the callback handed to the stream is made once, not per write (Node runs one write at a
 * time per stream).
 *
 * @throws TypeError when `stream` is not a `stream.Writable` (`http.ClientRequest` and `ServerResponse` are
 * typed as one but never call `_write` / `_writev`, so metering them in place would record nothing).
 */
export function meterWritable<T extends Writable>(stream: T, stats: Stats): T {
  // Writable's own instanceof check looks for the writable state that _write / _writev run from.
  if (!(stream instanceof Writable)) throw notWritable(stream);
  let start = 0;
  let bytes = 0;
  let callback: WriteCallback = noop;
  const done = (error?: Error | null): void => {
    // Read everything before calling back: the callback may start the next write synchronously.
    const next = callback;
    if (error === undefined || error === null) stats.timedIncrementBytes(bytes, performance.now() - start);
    next(error);
  };

  const write = stream._write;
  // The default _write hands the chunk to _writev, which is metered below: metering both would count twice.
  if (write !== Writable.prototype._write) {
    stream._write = function meteredWrite(this: Writable, chunk: unknown, encoding: BufferEncoding, cb: WriteCallback): void {
      callback = cb;
      bytes = byteLengthOf(chunk, encoding);
      start = performance.now();
      write.call(this, chunk, encoding, done);
    };
  }
  const writev = stream._writev;
  if (typeof writev === 'function') {
    stream._writev = function meteredWritev(this: Writable, chunks: WritevChunks, cb: WriteCallback): void {
      callback = cb;
      let total = 0;
      for (let i = 0; i < chunks.length; i++) {
        const entry = chunks[i] as WritevChunks[number];
        total += byteLengthOf(entry.chunk, entry.encoding);
      }
      bytes = total;
      start = performance.now();
      writev.call(this, chunks, done);
    };
  }
  return stream;
}

function noop(): void {}

function notWritable(stream: unknown): TypeError {
  const name = (stream as { constructor?: { name?: unknown } } | null)?.constructor?.name;
  const what = name === 'ClientRequest' ? 'http.ClientRequest' : typeof name === 'string' && name !== '' ? name : typeof stream;
  return new TypeError(
    `meterWritable: ${what} is not a stream.Writable and never calls _write / _writev, so metering it in place ` +
      'would record nothing (http.ClientRequest and ServerResponse are such streams). Meter the data on its way ' +
      'in instead: pipe it through meterTransform(new PassThrough(), stats), or meter the source with ' +
      "meterReadable; for S3 uploads with the AWS SDK, use meterS3Client from 'backupstats/s3'.",
  );
}
