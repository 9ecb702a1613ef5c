import { S3Client } from '@aws-sdk/client-s3';
import type { S3Connection } from './s3-connection.js';

/**
 * An S3 client for the connection. A custom endpoint gets path-style addressing (S3-compatible servers rarely
 * have a DNS name per bucket) and, without a region, `us-east-1`. A connection that cannot be made fails
 * within 5 s per attempt instead of waiting for the system's TCP time-out.
 */
export function createS3Client(connection: S3Connection): S3Client {
  const custom = connection.endpoint !== undefined;
  return new S3Client({
    ...(custom ? { endpoint: connection.endpoint, forcePathStyle: true } : {}),
    ...(connection.region !== undefined || custom ? { region: connection.region ?? 'us-east-1' } : {}),
    ...(connection.credentials === undefined ? {} : { credentials: { ...connection.credentials } }),
    requestHandler: { connectionTimeout: 5_000, httpAgent: { keepAlive: true, maxSockets: 32 } },
  });
}
