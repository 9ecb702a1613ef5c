import type { BlobClient, BlobServiceClient, ContainerClient } from '@azure/storage-blob';
import { HttpOperation } from '../api/http-operation.js';
import { Implementation, Operation } from '../api/labels.js';
import type { Stats } from '../api/stats.js';
import { requireStats } from '../base/arguments.js';
import { ERROR_CODES, notAcceptedArgument } from '../base/errors.js';
import { storageOperations } from '../io/storage-operations.js';
import { attemptPolicy, objectPolicy, type PipelinePolicyLike } from './policies.js';

/** A client of `@azure/storage-blob`: a `BlobServiceClient`, a `ContainerClient` or a `BlobClient` (any kind). */
export type MeterableBlobClient = BlobServiceClient | ContainerClient | BlobClient;

const ATTEMPT = 'backupstatsAzureAttemptPolicy';
const OBJECT = 'backupstatsAzureObjectPolicy';

/** The slice of @azure/core-rest-pipeline's `Pipeline` used here. */
interface CorePipelineLike {
  addPolicy(policy: PipelinePolicyLike, options?: { afterPhase?: string }): void;
  removePolicy(options: { name: string }): unknown;
  getOrderedPolicies(): readonly { readonly name: string }[];
}

/** The HTTP pipeline a storage client sends through, shared with the clients made from it. */
function corePipelineOf(client: unknown): CorePipelineLike | undefined {
  const c = client as
    | { storageClientContext?: { pipeline?: unknown }; pipeline?: { _corePipeline?: unknown } }
    | null
    | undefined;
  const pipeline = (c?.storageClientContext?.pipeline ?? c?.pipeline?._corePipeline) as
    | Partial<CorePipelineLike>
    | undefined;
  return typeof pipeline?.addPolicy === 'function' &&
    typeof pipeline.removePolicy === 'function' &&
    typeof pipeline.getOrderedPolicies === 'function'
    ? (pipeline as CorePipelineLike)
    : undefined;
}

/**
 * Meters every request an `@azure/storage-blob` client sends, through two policies of the SDK's own HTTP pipeline, on
 * `stats` scoped to `BackupStorage` / `Azure` (labels already set on `stats` win):
 * - each HTTP request attempt, retries included, is one `HTTP:Request:Send` with its duration and the declared
 *   bytes of its request and response bodies; a failed one is also `HTTP:Request:Failed`, or `HTTP:Request:Throttled`
 *   for 429 and 503 (`ServerBusy`) (see {@link HttpOperation});
 * - each staged block, single-shot upload, appended block or page is a `Destination:Write` with its bytes, each
 *   block-list commit a `Destination:Close`, a container's or an append / page blob's creation a `Destination:Open`;
 *   a download is `Source:Open`, then each chunk of its body a `Source:Read` and its release a `Source:Close`.
 *
 * The pipeline is shared by the client and every client made from it (`getContainerClient`,
 * `getBlockBlobClient`, …): meter the one the others come from, once. Give each family its own service client.
 *
 * @returns a function that removes the policies again (calls after the first do nothing).
 * @throws TypeError when `client` is not a client of `@azure/storage-blob`, `stats` is not a {@link Stats} or has
 * its `operation` set, or the client's pipeline is metered already.
 */
export function meterBlobClient(client: MeterableBlobClient, stats: Stats): () => void {
  const fn = 'meterBlobClient';
  const pipeline = corePipelineOf(client);
  if (pipeline === undefined) {
    throw notAcceptedArgument(
      ERROR_CODES.INVALID_ARGUMENT,
      fn,
      'client',
      client,
      'a BlobServiceClient, ContainerClient or BlobClient of @azure/storage-blob',
      'it has no HTTP pipeline',
    );
  }
  requireStats(ERROR_CODES.INVALID_ARGUMENT, fn, stats);
  if (pipeline.getOrderedPolicies().some((policy) => policy.name === ATTEMPT)) {
    throw notAcceptedArgument(
      ERROR_CODES.INVALID_ARGUMENT,
      fn,
      'client',
      client,
      'a client whose pipeline is not metered yet (clients made from a metered one share its pipeline; call the function the first meterBlobClient returned before metering it again)',
      'its pipeline is metered already',
    );
  }
  const on = storageOperations(fn, stats, Implementation.Azure, HttpOperation.RequestSend);
  // After the Retry phase: the SDK's retry policy calls it once per attempt.
  pipeline.addPolicy(
    attemptPolicy(ATTEMPT, {
      send: on(HttpOperation.RequestSend),
      failed: on(HttpOperation.RequestFailed),
      throttled: on(HttpOperation.RequestThrottled),
    }),
    { afterPhase: 'Retry' },
  );
  // No phase: before the Retry phase, once per operation.
  pipeline.addPolicy(
    objectPolicy(OBJECT, {
      destinationOpen: on(Operation.DestinationOpen),
      destinationWrite: on(Operation.DestinationWrite),
      destinationClose: on(Operation.DestinationClose),
      sourceOpen: on(Operation.SourceOpen),
      sourceRead: on(Operation.SourceRead),
      sourceClose: on(Operation.SourceClose),
    }),
  );
  let removed = false;
  return () => {
    if (removed) return;
    removed = true;
    pipeline.removePolicy({ name: ATTEMPT });
    pipeline.removePolicy({ name: OBJECT });
  };
}
