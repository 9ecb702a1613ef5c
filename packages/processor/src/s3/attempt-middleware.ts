import type { Stats } from '../api/stats.js';
import { declaredBodyBytes, type HttpMessage } from './body-size.js';
import type { Middleware } from './middleware.js';
import { isThrottling } from './throttling.js';

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
