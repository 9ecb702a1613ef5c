/**
 * Metering of an AWS SDK v3 S3 client: every request attempt and the object operations.
 *
 * @module backupstats/s3
 */
export { type MeterableS3Client, meterS3Client, S3Operation } from './meter-s3-client.js';
