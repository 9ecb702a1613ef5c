import type { Readable } from 'node:stream';
import type { Stats } from '../api/stats.js';
import { meterReadable } from '../io/meter-readable.js';
import { timeAsync } from '../io/timed.js';
import { type Handler, type Middleware, PAYLOAD_BYTES } from './attempt-middleware.js';

/** The handles of the object-level operations. */
export interface ObjectScopes {
  readonly destinationOpen: Stats;
  readonly destinationWrite: Stats;
  readonly destinationClose: Stats;
  readonly sourceOpen: Stats;
  readonly sourceRead: Stats;
  readonly sourceClose: Stats;
}

/**
 * The initialize middleware: it runs once per command, outside the retry loop, so its time includes retries
 * and their back-off. Each command that moves an object is one object-level operation, recorded when the
 * command succeeds (as a failed write records nothing on a stream; the attempts are metered all the same):
 * - `CreateMultipartUpload` is `Destination:Open`, each `UploadPart` and each `PutObject` a
 *   `Destination:Write` with the bytes stored, `CompleteMultipartUpload` is `Destination:Close`;
 * - `GetObject` is `Source:Open` up to the response, then its body is metered in place: each chunk a
 *   `Source:Read` (the time the reader waited for it), its release `Source:Close`.
 * Other commands return `next` itself: they cost nothing here.
 */
export function objectMiddleware(scopes: ObjectScopes): Middleware {
  return (next, context) => {
    switch (context.commandName) {
      case 'PutObjectCommand':
      case 'UploadPartCommand':
        return timed(next, scopes.destinationWrite, () => {
          const bytes = context[PAYLOAD_BYTES];
          return typeof bytes === 'number' ? bytes : 0;
        });
      case 'CreateMultipartUploadCommand':
        return timed(next, scopes.destinationOpen, undefined);
      case 'CompleteMultipartUploadCommand':
        return timed(next, scopes.destinationClose, undefined);
      case 'GetObjectCommand':
        return async (args) => {
          const result = await timed(next, scopes.sourceOpen, undefined)(args);
          const body = (result.output as { Body?: unknown } | undefined)?.Body;
          if (isNodeReadable(body)) meterObjectBody(body, scopes.sourceRead, scopes.sourceClose);
          return result;
        };
      default:
        return next;
    }
  };
}

/** `next` as one operation on `stats` with its duration, and its bytes when `bytes` says, once it succeeds. */
function timed(next: Handler, stats: Stats, bytes: (() => number) | undefined): Handler {
  const options = bytes === undefined ? undefined : { bytes };
  return (args) => timeAsync(stats, () => next(args), options);
}

/** A Node.js Readable built on `_read` / `push` (the SDK's Node.js HTTP handler gives one). */
export function isNodeReadable(body: unknown): body is Readable {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as Readable)._read === 'function' &&
    typeof (body as Readable).push === 'function' &&
    typeof (body as Readable)._destroy === 'function'
  );
}

/**
 * Meters a GetObject body in place: each chunk is a `Source:Read`, and the stream's release (`_destroy`,
 * which runs when the body ends or is destroyed) is a `Source:Close`. Bytes that arrived with the response
 * headers, before the body reached the caller, are one read the reader did not wait for.
 */
export function meterObjectBody(body: Readable, read: Stats, close: Stats): void {
  const buffered = body.readableLength;
  // Weight 0: an operation not timed, which adds nothing to the latency histogram.
  if (buffered > 0) read.timedIncrementBytes(buffered, 0, 0);
  meterReadable(body, read);
  const destroy = body._destroy;
  body._destroy = function meteredDestroy(
    this: Readable,
    error: Error | null,
    callback: (error?: Error | null) => void,
  ): void {
    const start = performance.now();
    destroy.call(this, error, (failure?: Error | null) => {
      close.timedIncrement(performance.now() - start);
      callback(failure);
    });
  };
}
