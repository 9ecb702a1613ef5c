import { Writable } from 'node:stream';
import type { Stats } from '../api/stats.js';
import { optionsOf, requireStats } from '../base/arguments.js';
import { describeValue, ERROR_CODES, notAccepted } from '../base/errors.js';
import { byteLengthOf } from '../base/values.js';
import { type OperationFunction, OperationMeter, type WritevFunction } from './operation-meter.js';
import { keepMeter, keepOwn, OWN_WRITE, OWN_WRITEV, requireUnmetered, WRITE_METER } from './stream-checks.js';
import { METER_OPTIONS, type MeterOptions, OPTIONS_EXAMPLE, timeOneInOf } from './timing-sample.js';
import { writableStateOf } from './writable-drain.js';

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
 * per write (Node runs one write at a time per stream), and the wrappers are the same functions for every
 * stream. The clock is `performance.now()` of the global
 * `performance` object as it is when the stream is metered. With `options.timeOneIn` set to N, one write in N
 * (on average) is timed and stands for the others ({@link MeterOptions.timeOneIn}).
 *
 * @throws TypeError when `stream` is not a `stream.Writable` (`http.ClientRequest` and `ServerResponse` are
 * typed as one but never call `_write` / `_writev`, so metering them in place would record nothing), or when
 * `options.timeOneIn` is not an integer from 1 to 65536.
 */
export function meterWritable<T extends Writable>(stream: T, stats: Stats, options?: MeterOptions): T {
  // Writable's own instanceof check looks for the writable state that _write / _writev run from.
  if (!(stream instanceof Writable)) throw notWritable(stream);
  requireStats(ERROR_CODES.INVALID_ARGUMENT, 'meterWritable', stats);
  const every = timeOneInOf(optionsOf('meterWritable', options, OPTIONS_EXAMPLE, METER_OPTIONS), 'meterWritable');
  requireUnmetered('meterWritable', stream, 'write');
  // Stryker disable next-line StringLiteral: the callbacks of both kinds behave alike
  const meter = new OperationMeter(stats, writableStateOf(stream), every, 'write');
  const write = stream._write;
  // The default _write hands the chunk to _writev, which is metered below: metering both would count twice.
  if (write !== Writable.prototype._write) {
    keepOwn(stream, OWN_WRITE, write);
    stream._write = meteredWrite;
  }
  const writev = stream._writev;
  if (typeof writev === 'function') {
    keepOwn(stream, OWN_WRITEV, writev);
    stream._writev = meteredWritev;
  }
  keepMeter(stream, 'write', meter);
  return stream;
}

/** What the shared wrappers read off a metered Writable. */
type MeteredWritable = Writable & {
  readonly [WRITE_METER]: OperationMeter;
  [OWN_WRITE]: OperationFunction;
  [OWN_WRITEV]: WritevFunction;
};

// One function for every metered stream: a function made per stream and called by Node's stream code would be
// inlined into that code, and collecting the stream would then throw the compiled code away (and, until then,
// keep the stream's pipeline alive through young collections).
function meteredWrite(this: MeteredWritable, chunk: unknown, encoding: BufferEncoding, cb: WriteCallback): void {
  const meter = this[WRITE_METER];
  meter.begin(byteLengthOf(chunk, encoding), cb);
  this[OWN_WRITE](chunk, encoding, meter.done);
  meter.sync = false;
}

function meteredWritev(this: MeteredWritable, chunks: WritevChunks, cb: WriteCallback): void {
  const meter = this[WRITE_METER];
  let total = 0;
  for (let i = 0; i < chunks.length; i++) {
    const entry = chunks[i] as WritevChunks[number];
    total += byteLengthOf(entry.chunk, entry.encoding);
  }
  meter.begin(total, cb);
  this[OWN_WRITEV](chunks, meter.done);
  meter.sync = false;
}

function notWritable(stream: unknown): TypeError {
  const name = (stream as { constructor?: { name?: unknown } } | null)?.constructor?.name;
  return notAccepted(
    ERROR_CODES.WRONG_STREAM,
    'meterWritable stream',
    name === 'ClientRequest' ? 'an http.ClientRequest' : describeValue(stream),
    'a stream.Writable; to meter an upload, meter the data on its way in instead: pipe it through ' +
      'meterTransform(new PassThrough(), stats), or meter the source with meterReadable; for S3 uploads with the ' +
      "AWS SDK, use meterS3Client from 'backupstats/s3'",
    'it is not a stream.Writable and never calls _write / _writev, so metering it in place would record nothing; ' +
      'http.ClientRequest and ServerResponse are such streams',
  );
}
