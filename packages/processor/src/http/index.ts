/**
 * Metering of every HTTP request attempt to a storage's origin, whichever client sends it (`node:http`,
 * `node:https`, `fetch`): Google Cloud Storage's JSON API, an S3-compatible server, any HTTP storage.
 *
 * @module backupstats/http
 */
export { HttpOperation } from '../api/http-operation.js';
export { type MeterHttpRequestsOptions, meterHttpRequests } from './meter-http-requests.js';
