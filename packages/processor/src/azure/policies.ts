import type { Stats } from '../api/stats.js';
import { declaredLength, FAILED, type HttpOutcome, outcomeOfStatus, THROTTLED } from '../base/http-outcome.js';
import { isNodeReadable, meterObjectBody } from '../io/meter-object-body.js';

// The slice of @azure/core-rest-pipeline these policies use, typed here so that only the public entry names
// @azure/storage-blob.

/** The headers of a request or a response. */
export interface HeadersLike {
  get(name: string): string | undefined;
}

/** A request going through the pipeline. */
export interface PipelineRequestLike {
  readonly url: string;
  readonly method: string;
  readonly headers: HeadersLike;
}

/** A response coming back through it; `readableStreamBody` when the body is streamed (a download). */
export interface PipelineResponseLike {
  readonly status: number;
  readonly headers: HeadersLike;
  readonly readableStreamBody?: unknown;
}

/** The next policy. */
export type SendRequestLike = (request: PipelineRequestLike) => Promise<PipelineResponseLike>;

/** A policy of the pipeline. */
export interface PipelinePolicyLike {
  readonly name: string;
  sendRequest(request: PipelineRequestLike, next: SendRequestLike): Promise<PipelineResponseLike>;
}

/** The handles an attempt records on. */
export interface AttemptScopes {
  readonly send: Stats;
  readonly failed: Stats;
  readonly throttled: Stats;
}

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
 * The attempt policy, placed after the `Retry` phase: the SDK's retry policy calls it once per HTTP request attempt.
 * Each attempt is one `HTTP:Request:Send` with the declared bytes of its request and response bodies and its
 * duration: to the response, or for a streamed body (a download) to the body's end; an attempt with a 4xx or 5xx, a
 * network error or an abort is also `HTTP:Request:Failed`, or `HTTP:Request:Throttled` for 429 and 503.
 */
export function attemptPolicy(name: string, scopes: AttemptScopes): PipelinePolicyLike {
  const record = (bytes: number, start: number, outcome: HttpOutcome): void => {
    const durationMillis = performance.now() - start;
    scopes.send.timedIncrementBytes(bytes, durationMillis);
    if (outcome === FAILED) scopes.failed.timedIncrementBytes(bytes, durationMillis);
    else if (outcome === THROTTLED) scopes.throttled.timedIncrementBytes(bytes, durationMillis);
  };
  return {
    name,
    async sendRequest(request, next) {
      const sent = declaredLength(request.headers.get('content-length'));
      const start = performance.now();
      let response: PipelineResponseLike;
      try {
        response = await next(request);
      } catch (error) {
        record(sent, start, FAILED);
        throw error;
      }
      const status = response.status;
      // A response to HEAD, a 204 and a 304 carry no body whatever length their headers declare.
      const received =
        request.method === 'HEAD' || status === 204 || status === 304
          ? 0
          : declaredLength(response.headers.get('content-length'));
      const body = response.readableStreamBody;
      if (isNodeReadable(body)) {
        // The body flows after the response: the attempt ends with it, and a body closed before its end failed.
        body.once('close', () => record(sent + received, start, body.readableEnded ? outcomeOfStatus(status) : FAILED));
      } else {
        record(sent + received, start, outcomeOfStatus(status));
      }
      return response;
    },
  };
}

/** The object-level operation a request is, from its method, query and headers; NONE for the others. */
const NONE = 0;
const WRITE = 1;
const OPEN = 2;
const CLOSE = 3;
const READ = 4;
type ObjectKind = typeof NONE | typeof WRITE | typeof OPEN | typeof CLOSE | typeof READ;

function kindOf(request: PipelineRequestLike): ObjectKind {
  const method = request.method;
  if (method !== 'PUT' && method !== 'GET') return NONE;
  const query = new URL(request.url).searchParams;
  const comp = query.get('comp');
  const restype = query.get('restype');
  if (method === 'GET') return comp === null && restype === null ? READ : NONE;
  if (comp === 'block' || comp === 'appendblock' || comp === 'page') return WRITE;
  if (comp === 'blocklist') return CLOSE;
  if (comp !== null) return NONE;
  if (restype === 'container') return OPEN;
  // Stryker disable next-line ConditionalExpression: the SDK sends no PUT with another restype and no comp
  if (restype !== null) return NONE;
  if (request.headers.get('x-ms-copy-source') !== undefined) return NONE;
  const type = request.headers.get('x-ms-blob-type');
  if (type === 'BlockBlob') return WRITE;
  // Stryker disable next-line ConditionalExpression: each PUT of the SDK that gets here creates an append or page blob
  return type === 'AppendBlob' || type === 'PageBlob' ? OPEN : NONE;
}

/**
 * The object policy, placed before the `Retry` phase: once per operation, so its time includes the retries and
 * their back-off. An operation is recorded when it succeeds (2xx), as a failed write records nothing on a stream:
 * - a staged block (`Put Block`), a single-shot upload (`Put Blob` of a block blob), an appended block or a page is
 *   a `Destination:Write` with the bytes stored; the block-list commit (`Put Block List`) a `Destination:Close`; a
 *   container's or an append / page blob's creation a `Destination:Open`;
 * - a download (`Get Blob`) is `Source:Open` up to the response, then its body is metered in place: each chunk a
 *   `Source:Read`, its release `Source:Close`.
 * Other operations go straight to the next policy.
 */
export function objectPolicy(name: string, scopes: ObjectScopes): PipelinePolicyLike {
  return {
    name,
    async sendRequest(request, next) {
      const kind = kindOf(request);
      if (kind === NONE) return next(request);
      const start = performance.now();
      const response = await next(request);
      // The SDK's deserialization, further down the pipeline, throws for every status its operation does not list, and
      // each one listed is a 2xx: this check guards other versions of the SDK.
      // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: see above
      if (response.status < 200 || response.status > 299) return response;
      const durationMillis = performance.now() - start;
      if (kind === WRITE) {
        scopes.destinationWrite.timedIncrementBytes(
          declaredLength(request.headers.get('content-length')),
          durationMillis,
        );
      } else if (kind === OPEN) {
        scopes.destinationOpen.timedIncrement(durationMillis);
      } else if (kind === CLOSE) {
        scopes.destinationClose.timedIncrement(durationMillis);
      } else {
        scopes.sourceOpen.timedIncrement(durationMillis);
        const body = response.readableStreamBody;
        // Stryker disable next-line ConditionalExpression: on Node.js, a download's body is a Node.js stream
        if (isNodeReadable(body)) meterObjectBody(body, scopes.sourceRead, scopes.sourceClose);
      }
      return response;
    },
  };
}
