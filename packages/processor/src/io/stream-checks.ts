import { describeValue, notAccepted } from '../base/errors.js';
import { isObject } from '../base/values.js';

/** The two sides of a stream a meter wraps: metering one side twice would count every chunk twice. */
export type Side = 'read' | 'write';

// Kept beside the streams rather than on them: a property added to a stream would change its hidden class, and
// Node's own stream code, which reads the stream's properties on every chunk, would slow down. Under a
// Symbol.for key of the global, so that every copy of the library in the process (ESM and CommonJS builds) shares them.
const KEY = Symbol.for('backupstats.metered-streams');
const holder = globalThis as { [KEY]?: Record<Side, WeakSet<object>> };
holder[KEY] ??= { read: new WeakSet(), write: new WeakSet() };
const marks = holder[KEY];

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
    `${fn} stream`,
    describeValue(stream),
    'a stream.Readable (files, sockets, zlib, Readable.from, the readable side of a Duplex or Transform)',
    'it has no readable side to meter: no _read() and push() of a stream.Readable',
    'BACKUPSTATS_WRONG_STREAM',
  );
}

/** Throws unless `stream` is a Transform: both sides, and a `_transform` to wrap. */
export function requireTransform(fn: string, stream: unknown): void {
  const parts = stream as StreamParts | null | undefined;
  if (isObject(parts) && typeof parts._transform === 'function' && isObject(parts._writableState)) {
    if (isObject(parts._readableState)) return;
  }
  throw notAccepted(
    `${fn} stream`,
    describeValue(stream),
    'a stream.Transform (zlib, crypto ciphers and hashes as streams, PassThrough, your own Transform)',
    'it has no _transform() to meter, so it would record nothing',
    'BACKUPSTATS_WRONG_STREAM',
  );
}

/** Marks `side` of `stream` metered; throws when it was already, by any meter of that side. */
export function markMetered(fn: string, stream: object, side: Side): void {
  if (marks[side].has(stream)) {
    throw notAccepted(
      `${fn} stream`,
      describeValue(stream),
      `a stream whose ${side === 'read' ? 'reading' : 'writing'} side is not metered yet`,
      'it is metered already: metering it again would count every chunk twice',
      'BACKUPSTATS_WRONG_STREAM',
    );
  }
  marks[side].add(stream);
}
