// @ts-nocheck
export { type MeterableS3Client, meterS3Client } from './meter-s3-client.js';
export { S3Operation } from './operations.js';
