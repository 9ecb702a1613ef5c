/** How an HTTP request attempt ended, for the attempt series: here, it succeeded. */
export const SUCCEEDED = 0;
/** An attempt that failed: a network error, a time-out, an abort, a 4xx or a 5xx other than throttling. */
export const FAILED = 1;
/** An attempt the service throttled. */
export const THROTTLED = 2;
/** One of {@link SUCCEEDED}, {@link FAILED}, {@link THROTTLED}. */
export type HttpOutcome = typeof SUCCEEDED | typeof FAILED | typeof THROTTLED;

/**
 * The outcome of an attempt that got a response of `status`: 429 and 503 are throttling (Azure's `ServerBusy`, S3's
 * and GCS's `SlowDown` are 503), any other status from 400 up a failure.
 */
export function outcomeOfStatus(status: number): HttpOutcome {
  if (status === 429 || status === 503) return THROTTLED;
  return status >= 400 ? FAILED : SUCCEEDED;
}

/**
 * The body bytes a header declares (`Content-Length`): 0 when absent or not a whole number. Node gives a header's
 * value as a string, a number (`setHeader` with a number) or an array of strings.
 */
export function declaredLength(value: unknown): number {
  const bytes = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  // Stryker disable next-line EqualityOperator: 0 bytes gives 0 either way
  return Number.isSafeInteger(bytes) && bytes >= 0 ? bytes : 0;
}
