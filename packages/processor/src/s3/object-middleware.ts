import type { Stats } from '../api/stats.js';
import { isNodeReadable, meterObjectBody } from '../io/meter-object-body.js';
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
