import type { Readable } from 'node:stream';
import type { Stats } from '../api/stats.js';
import { optionsOf, requireStats } from '../base/arguments.js';
import { ERROR_CODES } from '../base/errors.js';
import { byteLengthOf } from '../base/values.js';
import { RecordingHandle } from '../series/recording-handle.js';
import {
  keepMeter,
  keepOwn,
  OWN_PUSH,
  OWN_READ,
  READ_METER,
  requireReadable,
  requireUnmetered,
} from './stream-checks.js';
import { METER_OPTIONS, type MeterOptions, OPTIONS_EXAMPLE, TimingSample, timeOneInOf } from './timing-sample.js';

/**
 * Meters a Readable in place and returns it: every chunk it produces is recorded on `stats` as one operation
 * with its bytes and the time the stream made its reader wait for it (from the read request, or from the
 * previous chunk when several come for one request, to the chunk's arrival). The end of the stream is not an
 * operation.
 *
 * No stream is added: the same object comes back, so data, errors, backpressure, `destroy()` and
 * `highWaterMark` are the stream's own. It works with every Readable built on Node's `_read()` / `push()`
 * contract (files, sockets, zlib, `Readable.from`, a `Transform`'s readable side), inside `stream.pipeline` or
 * not. Per chunk it costs at most two clock reads and one record on the held handle; no closure or object is
 * made per chunk, and the wrappers are the same functions for every stream. The clock is `performance.now()` of the global `performance` object as it is when the
 * stream is metered. With `options.timeOneIn` set to N, one chunk in N (on average) is timed and stands for
 * the others ({@link MeterOptions.timeOneIn}): two clock reads per timed chunk, none for the others.
 *
 * @throws TypeError when `options.timeOneIn` is not an integer from 1 to 65536.
 */
export function meterReadable<T extends Readable>(stream: T, stats: Stats, options?: MeterOptions): T {
  requireReadable('meterReadable', stream);
  requireStats(ERROR_CODES.INVALID_ARGUMENT, 'meterReadable', stats);
  const every = timeOneInOf(optionsOf('meterReadable', options, OPTIONS_EXAMPLE, METER_OPTIONS), 'meterReadable');
  requireUnmetered('meterReadable', stream, 'read');
  // A string pushed without an encoding is encoded with the stream's `defaultEncoding` (hex, latin1, base64…),
  // which Node keeps only in its internal state; it cannot change after construction. Object mode keeps strings.
  // requireReadable has checked that the state is an object.
  const state = (stream as { _readableState?: ReadableStateView })._readableState as ReadableStateView;
  const defaultEncoding =
    // Stryker disable next-line ConditionalExpression: Node's Readable refuses a defaultEncoding that is not a name
    state.objectMode !== true && typeof state.defaultEncoding === 'string'
      ? (state.defaultEncoding as BufferEncoding)
      : undefined;
  const meter = new ReadMeter(stats, defaultEncoding, every);
  keepOwn(stream, OWN_READ, stream._read);
  keepOwn(stream, OWN_PUSH, stream.push);
  stream._read = meteredRead;
  stream.push = meteredPush;
  keepMeter(stream, 'read', meter);
  return stream;
}

/** A stream's own `_read` and `push`, as the meter found them. */
type ReadFunction = (this: unknown, size: number) => void;
type PushFunction = (this: unknown, chunk: unknown, encoding?: BufferEncoding) => boolean;

/** What the shared wrappers read off a metered Readable. */
type MeteredReadable = Readable & {
  readonly [READ_METER]: ReadMeter;
  [OWN_READ]: ReadFunction;
  [OWN_PUSH]: PushFunction;
};

// One function for every metered stream, for the reason meterWritable's wrappers are.
function meteredRead(this: MeteredReadable, size: number): void {
  const meter = this[READ_METER];
  // The wait of an untimed chunk needs no start.
  if (meter.untimed === 0) meter.start = meter.clock.now();
  this[OWN_READ](size);
}

function meteredPush(this: MeteredReadable, chunk: unknown, encoding?: BufferEncoding): boolean {
  const meter = this[READ_METER];
  if (chunk !== null && chunk !== undefined) meter.arrived(chunk, encoding);
  return this[OWN_PUSH](chunk, encoding);
}

/** The parts of Node's internal readable state that tell how a pushed string is encoded. */
interface ReadableStateView {
  readonly defaultEncoding?: unknown;
  readonly objectMode?: unknown;
}

/** The wait in progress. One per stream; a timestamp is stored in place rather than boxed anew on every chunk. */
class ReadMeter extends TimingSample {
  /**
   * When the current wait began (ms, the clock's own origin): metering, the read request or the last chunk.
   * Initialised to a number here, before the constructor's clock read: a field that starts out undefined is
   * stored as a pointer, and every clock read stored into it would allocate a box.
   */
  start = 0;

  /** `stats` when it is one of the library's own handles, which record an untimed chunk in fewer steps. */
  readonly handle: RecordingHandle | undefined;

  constructor(
    readonly stats: Stats,
    readonly defaultEncoding: BufferEncoding | undefined,
    every: number,
  ) {
    super(every, performance);
    // Stryker disable next-line ConditionalExpression: without the handle, timedIncrementBytes records the same
    this.handle = stats instanceof RecordingHandle ? stats : undefined;
    this.start = this.clock.now();
  }

  arrived(chunk: unknown, encoding: BufferEncoding | undefined): void {
    const bytes = byteLengthOf(chunk, encoding || this.defaultEncoding);
    if (this.untimed > 0) {
      const handle = this.handle;
      // Stryker disable next-line ConditionalExpression: timedIncrementBytes records the same, in more steps
      if (handle !== undefined) handle.countBytes(bytes);
      else this.stats.timedIncrementBytes(bytes, 0, 0);
      this.untimed -= 1;
      // The next chunk is timed: its wait starts now (or at the next read request).
      if (this.untimed === 0) this.startWait();
      return;
    }
    this.arrivedTimed(bytes);
  }

  // The timed paths are methods of their own, called for one chunk in N: V8 inlines a call by how often it runs,
  // so they stay out of the untimed path that the stream's code inlines, and out of its inlining budget.
  private startWait(): void {
    this.start = this.clock.now();
  }

  private arrivedTimed(bytes: number): void {
    // One clock read ends this chunk's wait and starts the next one's.
    const now = this.clock.now();
    const duration = now - this.start;
    this.stats.timedIncrementBytes(bytes, duration, this.weight);
    this.start = now;
    this.timed(duration);
  }
}
