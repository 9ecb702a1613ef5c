import { Writable } from 'node:stream';
import type { Stats } from '../stats.js';
import { byteLengthOf } from './byte-length.js';
import { type MeterOptions, nextSpan, timeOneInOf } from './timing-sample.js';
import { drainsNextWrite, type WritableStateView, writableStateOf } from './writable-drain.js';

type WriteCallback = (error?: Error | null) => void;
type WritevChunks = Array<{ chunk: unknown; encoding: BufferEncoding }>;

/**
 * Meters a Writable in place and returns it: every write the stream carries out is recorded on `stats` as
 * one operation with its bytes and its duration, from the moment Node starts the write to its callback.
 * Node starts a write when it hands the data to `_write`, or, for data that waited in the buffer, when the
 * previous write's callback runs: Node then calls `_write` for it before any other code runs, so one clock
 * read ends the previous write and starts this one, and the durations of back-to-back writes add up to the
 * time the stream was busy. A batched `_writev` (fs streams have one) is one operation carrying the bytes of
 * all its chunks, as it is one system call. A failed write records nothing, nor does a second callback for
 * the same write (Node reports that one as an error).
 *
 * No stream is added: the same object comes back, so data, errors, backpressure (`highWaterMark`, `drain`)
 * and `destroy()` are the stream's own. Works inside `stream.pipeline`. Per write it costs one record and
 * two clock reads, or one for a write started by the previous write's callback; no closure or object is made
 * per write (Node runs one write at a time per stream). The clock is `performance.now()` of the global
 * `performance` object as it is when the stream is metered. With `options.timeOneIn` set to N, one write in N
 * (on average) is timed and stands for the others ({@link MeterOptions.timeOneIn}).
 *
 * @throws TypeError when `stream` is not a `stream.Writable` (`http.ClientRequest` and `ServerResponse` are
 * typed as one but never call `_write` / `_writev`, so metering them in place would record nothing), or when
 * `options.timeOneIn` is not an integer from 1 to 65536.
 */
export function meterWritable<T extends Writable>(stream: T, stats: Stats, options: MeterOptions = {}): T {
  // Writable's own instanceof check looks for the writable state that _write / _writev run from.
  if (!(stream instanceof Writable)) throw notWritable(stream);
  const meter = new WriteMeter(stats, writableStateOf(stream), timeOneInOf(options, 'meterWritable'));
  const done: WriteCallback = (error) => meter.done(error);

  const write = stream._write;
  // The default _write hands the chunk to _writev, which is metered below: metering both would count twice.
  if (write !== Writable.prototype._write) {
    stream._write = function meteredWrite(this: Writable, chunk: unknown, encoding: BufferEncoding, cb: WriteCallback): void {
      meter.begin(byteLengthOf(chunk, encoding), cb);
      write.call(this, chunk, encoding, done);
      meter.sync = false;
    };
  }
  const writev = stream._writev;
  if (typeof writev === 'function') {
    stream._writev = function meteredWritev(this: Writable, chunks: WritevChunks, cb: WriteCallback): void {
      let total = 0;
      for (let i = 0; i < chunks.length; i++) {
        const entry = chunks[i] as WritevChunks[number];
        total += byteLengthOf(entry.chunk, entry.encoding);
      }
      meter.begin(total, cb);
      writev.call(this, chunks, done);
      meter.sync = false;
    };
  }
  return stream;
}

/**
 * The write in flight. One per stream; every field starts as a value of its final type, so all meters share
 * one hidden class and a timestamp is stored in place rather than boxed anew on every write.
 */
class WriteMeter {
  /** When the write in flight started (ms, the clock's own origin). */
  start = 0;
  bytes = 0;
  /** Node's callback for the write in flight (the same function for every write of a stream). */
  callback: WriteCallback = noop;
  /** A write is in flight and its callback has not run yet. */
  pending = false;
  /** The write in flight has not returned from `_write` yet: a callback now is synchronous. */
  sync = false;
  /** `start` was stamped by the previous write's callback, which is draining the buffer into this write. */
  drained = false;
  /** The write in flight is timed (always, without sampling). */
  timed = false;
  /** Writes to leave untimed before the next timed one (always 0 without sampling). */
  untimed = 0;
  /** How many writes the next timed one stands for (always 1 without sampling). */
  span = 1;
  readonly clock: typeof performance = performance;

  constructor(
    readonly stats: Stats,
    readonly state: WritableStateView | undefined,
    readonly every: number,
  ) {
    this.span = nextSpan(every);
    this.untimed = this.span - 1;
  }

  begin(bytes: number, callback: WriteCallback): void {
    this.bytes = bytes;
    // Node hands the same callback to every write of a stream: skip the store and its write barrier.
    if (this.callback !== callback) this.callback = callback;
    this.pending = true;
    this.sync = true;
    if (this.untimed > 0) {
      this.untimed -= 1;
      this.timed = false;
      return;
    }
    this.timed = true;
    if (this.drained) this.drained = false;
    else this.start = this.clock.now();
  }

  done(error: Error | null | undefined): void {
    // Read everything before calling back: the callback may start the next write synchronously.
    const next = this.callback;
    if (this.pending && (error === undefined || error === null)) {
      this.pending = false;
      if (!this.timed) {
        this.stats.timedIncrementBytes(this.bytes, 0);
        next(error);
        return;
      }
      const now = this.clock.now();
      this.stats.timedIncrementBytes(this.bytes, (now - this.start) * this.span);
      this.span = nextSpan(this.every);
      this.untimed = this.span - 1;
      // A synchronous callback is left out to save the state reads in synchronous pipelines: Node is then inside
      // clearBuffer already, or nothing was buffered when _write began. An untimed next write needs no start.
      if (this.untimed === 0 && !this.sync && drainsNextWrite(this.state)) {
        this.start = now;
        this.drained = true;
        next(error);
        // Consumed by the write Node started, or left over if it started none.
        this.drained = false;
        return;
      }
    } else {
      this.pending = false;
    }
    next(error);
  }
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
