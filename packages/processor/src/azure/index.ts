/**
 * Metering of an `@azure/storage-blob` client: every request attempt and the object operations.
 *
 * @module backupstats/azure
 */
export { HttpOperation } from '../api/http-operation.js';
export { type MeterableBlobClient, meterBlobClient } from './meter-blob-client.js';
