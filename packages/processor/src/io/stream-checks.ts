import { describeValue, ERROR_CODES, notAccepted } from '../base/errors.js';
import { isObject } from '../base/values.js';

/** The two sides of a stream a meter wraps: metering one side twice would count every chunk twice. */
export type Side = 'read' | 'write';

/**
 * The key under which a stream keeps the meter of each side: the meter is the mark that the side is metered,
 * and the shared wrappers (one function for every stream, so that collecting a stream never takes compiled
 * code with it) find their meter there. A `Symbol.for` key, so that every copy of the library in the process
 * (ESM and CommonJS builds) sees the other's marks.
 */
export const READ_METER: unique symbol = Symbol.for('backupstats.read-meter');
/** See {@link READ_METER}. */
export const WRITE_METER: unique symbol = Symbol.for('backupstats.write-meter');
const METER_KEYS: Readonly<Record<Side, symbol>> = { read: READ_METER, write: WRITE_METER };

// The keys under which a metered stream keeps its own functions that the wrappers replaced. The wrappers call
// them as methods of the stream (`this[OWN_WRITE](…)`), a call V8 inlines; `Function.prototype.call` on a
// function kept elsewhere is a call it does not inline (Node 20), one more frame per chunk and stage.
/** The stream's own `_read`. */
export const OWN_READ: unique symbol = Symbol('backupstats.own-read');
/** The stream's own `push`. */
export const OWN_PUSH: unique symbol = Symbol('backupstats.own-push');
/** The stream's own `_write`, or a Transform's own `_transform`. */
export const OWN_WRITE: unique symbol = Symbol('backupstats.own-write');
/** The stream's own `_writev`. */
export const OWN_WRITEV: unique symbol = Symbol('backupstats.own-writev');

interface StreamParts {
  readonly _read?: unknown;
  readonly _transform?: unknown;
  readonly push?: unknown;
  readonly _readableState?: unknown;
  readonly _writableState?: unknown;
}

/** Throws unless `stream` is a Readable built on Node's `_read()` / `push()` contract (any version of it). */
export function requireReadable(fn: string, stream: unknown): void {
  const parts = stream as StreamParts | null | undefined;
  if (isObject(parts) && typeof parts._read === 'function' && typeof parts.push === 'function') {
    if (isObject(parts._readableState)) return;
  }
  throw notAccepted(
    ERROR_CODES.WRONG_STREAM,
    `${fn} stream`,
    describeValue(stream),
    'a stream.Readable (files, sockets, zlib, Readable.from, the readable side of a Duplex or Transform)',
    'it has no readable side to meter: no _read() and push() of a stream.Readable',
  );
}

/** Throws unless `stream` is a Transform: both sides, and a `_transform` to wrap. */
export function requireTransform(fn: string, stream: unknown): void {
  const parts = stream as StreamParts | null | undefined;
  if (isObject(parts) && typeof parts._transform === 'function' && isObject(parts._writableState)) {
    if (isObject(parts._readableState)) return;
  }
  throw notAccepted(
    ERROR_CODES.WRONG_STREAM,
    `${fn} stream`,
    describeValue(stream),
    'a stream.Transform (zlib, crypto ciphers and hashes as streams, PassThrough, your own Transform)',
    'it has no _transform() to meter, so it would record nothing',
  );
}

/** Throws when `side` of `stream` is metered already, by any meter of that side. */
export function requireUnmetered(fn: string, stream: object, side: Side): void {
  if (!(METER_KEYS[side] in stream)) return;
  throw notAccepted(
    ERROR_CODES.WRONG_STREAM,
    `${fn} stream`,
    describeValue(stream),
    `a stream whose ${side === 'read' ? 'reading' : 'writing'} side is not metered yet`,
    'it is metered already: metering it again would count every chunk twice',
  );
}

/**
 * Keeps `meter` on `stream` under its side's key. A plain assignment: `Object.defineProperty` would hide it from
 * spreads and `util.inspect`, at about 0.7 µs per stream, a cost every new pipeline would pay.
 */
export function keepMeter(stream: object, side: Side, meter: object): void {
  (stream as Record<symbol, object>)[METER_KEYS[side]] = meter;
}

/** Keeps one of `stream`'s own functions under `key` (see {@link OWN_WRITE}), for the wrapper that replaces it. */
export function keepOwn(
  stream: object,
  key: typeof OWN_READ | typeof OWN_PUSH | typeof OWN_WRITE | typeof OWN_WRITEV,
  fn: unknown,
): void {
  (stream as Record<symbol, unknown>)[key] = fn;
}
