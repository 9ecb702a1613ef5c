import type { Readable } from 'node:stream';
import type { Stats } from '../api/stats.js';
import { meterReadable } from './meter-readable.js';

/** A Node.js Readable built on `_read` / `push` (the Node.js HTTP handlers of the storage SDKs give one). */
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
 * Meters a downloaded object's body in place (a GetObject body, an Azure download): each chunk is a `Source:Read`, and the stream's release (`_destroy`,
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
