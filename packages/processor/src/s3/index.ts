export { type MeterableS3Client, meterS3Client, S3Operation } from './meter-s3-client.js';
