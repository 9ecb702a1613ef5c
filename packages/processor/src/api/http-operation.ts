/**
 * The `operation` values of HTTP request attempts to a storage, recorded by `backupstats/http` and
 * `backupstats/azure`. Every attempt is one `HTTP:Request:Send`; an attempt that failed is also one
 * `HTTP:Request:Failed` or, when the service throttled it, one `HTTP:Request:Throttled`, with the same bytes and
 * duration. The last two are subsets of the first, so `Send - Failed - Throttled` is what succeeded.
 *
 * @enum
 */
export const HttpOperation = Object.freeze({
  /** Every HTTP request attempt, retries included. */
  RequestSend: 'HTTP:Request:Send',
  /** An attempt that ended in a network error, a time-out, an abort, a 4xx or a 5xx other than throttling. */
  RequestFailed: 'HTTP:Request:Failed',
  /** An attempt the service throttled: status 429 or 503 (Azure's `ServerBusy`, S3's and GCS's `SlowDown`). */
  RequestThrottled: 'HTTP:Request:Throttled',
} as const);
