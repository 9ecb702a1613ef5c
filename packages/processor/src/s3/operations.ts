import { Operation } from '../api/labels.js';

/**
 * The `operation` values of S3 requests. Every HTTP request attempt is one `AWS:Request:Send` (Vitess's
 * name); an attempt that failed is also one `AWS:Request:Failed` or, when the service throttled it, one
 * `AWS:Request:Throttled`, with the same bytes and duration. The last two are subsets of the first, so
 * `Send - Failed - Throttled` is what succeeded, for operations, bytes and time alike.
 */
export const S3Operation = Object.freeze({
  RequestSend: Operation.AWSRequestSend,
  RequestFailed: 'AWS:Request:Failed',
  RequestThrottled: 'AWS:Request:Throttled',
} as const);
