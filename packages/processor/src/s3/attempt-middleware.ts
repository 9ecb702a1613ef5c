import type { Stats } from '../api/stats.js';
import { byteLengthOf } from '../base/values.js';

// The slice of the AWS SDK v3 middleware stack (smithy) these middlewares use, typed here so that only the
// public entry names @aws-sdk/client-s3.

/** What a handler receives: the command's input and, from the build step on, the HTTP request. */
export interface HandlerArguments {
  readonly input?: unknown;
  readonly request?: unknown;
}

/** What a handler resolves to: the command's output and, below the initialize step, the HTTP response. */
export interface HandlerOutput {
  readonly output?: unknown;
  readonly response?: unknown;
}

/** A handler of one step. */
export type Handler = (args: HandlerArguments) => Promise<HandlerOutput>;

/** Per command invocation, shared by every step; `commandName` is e.g. `PutObjectCommand`. */
export interface HandlerContext {
  readonly commandName?: string;
  [key: string]: unknown;
}

/** A middleware: called once per command invocation with the next handler. */
export type Middleware = (next: Handler, context: HandlerContext) => Handler;

/** The stack operations used to add and remove the middlewares. */
export interface MiddlewareStackLike {
  add(middleware: Middleware, options: { step: string; priority: string; name: string; tags: string[] }): void;
  remove(name: string): boolean;
  identify(): string[];
}

/** The handles one attempt records on. */
export interface AttemptScopes {
  readonly send: Stats;
  readonly failed: Stats;
  readonly throttled: Stats;
}

/** Where the attempt middleware leaves the payload bytes of the attempt that succeeded, for the object level. */
export const PAYLOAD_BYTES = 'backupstatsS3PayloadBytes';

/**
 * The finalizeRequest middleware: it runs inside the SDK's retry loop, after signing, once per HTTP request
 * attempt. Each attempt is one `AWS:Request:Send` with its duration (to the response parsed, or the error)
 * and the declared bytes of the request and response bodies; a failed one is also `AWS:Request:Failed` or
 * `AWS:Request:Throttled`. Errors pass through untouched.
 */
export function attemptMiddleware(scopes: AttemptScopes): Middleware {
  return (next, context) => async (args) => {
    const request = args.request as HttpMessage | undefined;
    const sent = declaredBodyBytes(request, false);
    const head = request?.method === 'HEAD';
    const start = performance.now();
    try {
      const result = await next(args);
      scopes.send.timedIncrementBytes(sent + responseBodyBytes(result.response, head), performance.now() - start);
      context[PAYLOAD_BYTES] = declaredBodyBytes(request, true);
      return result;
    } catch (error) {
      const durationMillis = performance.now() - start;
      // A service error carries the response it was parsed from; a network error has none.
      const bytes = sent + responseBodyBytes((error as { $response?: unknown } | null)?.$response, head);
      scopes.send.timedIncrementBytes(bytes, durationMillis);
      (isThrottling(error) ? scopes.throttled : scopes.failed).timedIncrementBytes(bytes, durationMillis);
      throw error;
    }
  };
}

function responseBodyBytes(response: unknown, head: boolean): number {
  const status = (response as { statusCode?: unknown } | undefined)?.statusCode;
  // A response to HEAD, a 204 and a 304 carry no body whatever length their headers declare.
  return head || status === 204 || status === 304 ? 0 : declaredBodyBytes(response as HttpMessage | undefined, false);
}

/** The parts of a smithy HttpRequest / HttpResponse read here. */
export interface HttpMessage {
  readonly method?: string | undefined;
  readonly headers?: Record<string, string | undefined> | undefined;
  readonly body?: unknown;
}

/**
 * Bytes of a message's body as declared: `x-amz-decoded-content-length` (the payload of an `aws-chunked`
 * upload), else `Content-Length`, else the length of a string or binary body; 0 when unknown (a stream
 * without a declared length). The SDK writes header names in lower case; Node's responses have them so too.
 */
export function declaredBodyBytes(message: HttpMessage | undefined, payload: boolean): number {
  if (message === undefined || message === null) return 0;
  const headers = message.headers;
  if (headers !== undefined && headers !== null) {
    const declared = (payload ? headers['x-amz-decoded-content-length'] : undefined) ?? headers['content-length'];
    if (declared !== undefined) {
      const bytes = Number(declared);
      if (Number.isSafeInteger(bytes) && bytes >= 0) return bytes;
    }
  }
  const body = message.body;
  return typeof body === 'string' || ArrayBuffer.isView(body) ? byteLengthOf(body) : 0;
}

// The AWS SDK's own rule for a throttling error (`isThrottlingError` of its retry strategy, in
// @smithy/service-error-classification, now @smithy/core/retry), so that what is counted as throttled is what
// the SDK backs off for. Mirrored rather than imported: the rule has moved between packages across SDK
// releases, and a transitive package of the SDK cannot be resolved from here under strict layouts (pnpm).
const THROTTLING_ERROR_CODES: ReadonlySet<string> = new Set([
  'BandwidthLimitExceeded',
  'EC2ThrottledException',
  'LimitExceededException',
  'PriorRequestNotComplete',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'SlowDown',
  'ThrottledException',
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
  'TransactionInProgressException',
]);

interface SdkError {
  readonly name?: unknown;
  readonly $metadata?: { readonly httpStatusCode?: unknown } | undefined;
  readonly $retryable?: { readonly throttling?: unknown } | undefined;
}

/** True when the service throttled the attempt (HTTP 429, `SlowDown` and the other throttling codes). */
export function isThrottling(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as SdkError;
  return (
    e.$metadata?.httpStatusCode === 429 ||
    (typeof e.name === 'string' && THROTTLING_ERROR_CODES.has(e.name)) ||
    e.$retryable?.throttling === true
  );
}
