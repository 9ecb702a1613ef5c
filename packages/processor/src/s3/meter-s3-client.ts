import type { S3Client } from '@aws-sdk/client-s3';
import { Implementation, Operation } from '../api/labels.js';
import type { Stats } from '../api/stats.js';
import { requireStats } from '../base/arguments.js';
import { ERROR_CODES, notAcceptedArgument } from '../base/errors.js';
import { storageOperations } from '../io/storage-operations.js';
import { attemptMiddleware, type MiddlewareStackLike } from './attempt-middleware.js';
import { objectMiddleware } from './object-middleware.js';

/** Any client of `@aws-sdk/client-s3` (`S3Client`, the aggregated `S3`, or the one an `Upload` is given). */
export type MeterableS3Client = Pick<S3Client, 'middlewareStack'>;

const ATTEMPT = 'backupstatsS3AttemptMiddleware';
const OBJECT = 'backupstatsS3ObjectMiddleware';
const TAG = 'BACKUPSTATS';

/**
 * Meters every request an AWS SDK v3 S3 client sends, through its middleware stack, on `stats` scoped to
 * `BackupStorage` / `S3` (labels already set on `stats` win):
 * - each HTTP request attempt, retries included, is one `AWS:Request:Send` with its duration and the declared
 *   bytes of its request and response bodies; a failed attempt is also one `AWS:Request:Failed`, or
 *   `AWS:Request:Throttled` when the service throttled it (see {@link S3Operation});
 * - commands that move objects are object-level operations: `Destination:Open` / `Write` / `Close` for
 *   `CreateMultipartUpload` / `UploadPart` and `PutObject` / `CompleteMultipartUpload` (so each part of a
 *   `@aws-sdk/lib-storage` `Upload` is a write), and `Source:Open` / `Read` / `Close` for `GetObject` and the
 *   chunks and release of its body.
 *
 * Give each family its own client (`stats.backup` for the one that uploads, `stats.restore` for the one that
 * downloads); clients are cheap and can share an HTTP agent.
 *
 * @returns a function that removes the middlewares again (calls after the first do nothing).
 * @throws TypeError when `client` has no middleware stack, `stats` is not a {@link Stats} or has its `operation`
 * set (every S3 operation would be recorded under it), or the client is metered already.
 */
export function meterS3Client(client: MeterableS3Client, stats: Stats): () => void {
  const stack = (client as { middlewareStack?: Partial<MiddlewareStackLike> } | null | undefined)?.middlewareStack;
  if (typeof stack?.add !== 'function' || typeof stack.remove !== 'function' || typeof stack.identify !== 'function') {
    throw notAcceptedArgument(
      ERROR_CODES.INVALID_ARGUMENT,
      'meterS3Client',
      'client',
      client,
      'an S3Client of @aws-sdk/client-s3 (any AWS SDK v3 client with a middlewareStack)',
      'it has no middlewareStack',
    );
  }
  requireStats(ERROR_CODES.INVALID_ARGUMENT, 'meterS3Client', stats);
  const metered = stack as MiddlewareStackLike;
  if (metered.identify().some((entry) => entry.startsWith(ATTEMPT))) {
    throw notAcceptedArgument(
      ERROR_CODES.INVALID_ARGUMENT,
      'meterS3Client',
      'client',
      client,
      'a client not metered yet (call the function the first meterS3Client returned before metering it again)',
      'it is metered already',
    );
  }

  const on = storageOperations('meterS3Client', stats, Implementation.S3, S3Operation.RequestSend);
  metered.add(
    attemptMiddleware({
      send: on(S3Operation.RequestSend),
      failed: on(S3Operation.RequestFailed),
      throttled: on(S3Operation.RequestThrottled),
    }),
    // Low priority in finalizeRequest: inside the retry loop and after signing, so one call per attempt.
    { step: 'finalizeRequest', priority: 'low', name: ATTEMPT, tags: [TAG] },
  );
  metered.add(
    objectMiddleware({
      destinationOpen: on(Operation.DestinationOpen),
      destinationWrite: on(Operation.DestinationWrite),
      destinationClose: on(Operation.DestinationClose),
      sourceOpen: on(Operation.SourceOpen),
      sourceRead: on(Operation.SourceRead),
      sourceClose: on(Operation.SourceClose),
    }),
    // High priority in initialize: around everything else, so a command's time includes its retries.
    { step: 'initialize', priority: 'high', name: OBJECT, tags: [TAG] },
  );
  let removed = false;
  return () => {
    if (removed) return;
    removed = true;
    metered.remove(ATTEMPT);
    metered.remove(OBJECT);
  };
}

/**
 * The `operation` values of S3 requests. Every HTTP request attempt is one `AWS:Request:Send` (Vitess's
 * name); an attempt that failed is also one `AWS:Request:Failed` or, when the service throttled it, one
 * `AWS:Request:Throttled`, with the same bytes and duration. The last two are subsets of the first, so
 * `Send - Failed - Throttled` is what succeeded, for operations, bytes and time alike.
 *
 * @enum
 */
export const S3Operation = Object.freeze({
  /** Every HTTP request attempt, retries included. */
  RequestSend: Operation.AWSRequestSend,
  /** An attempt that ended in an error other than throttling. */
  RequestFailed: 'AWS:Request:Failed',
  /** An attempt the service throttled. */
  RequestThrottled: 'AWS:Request:Throttled',
} as const);
