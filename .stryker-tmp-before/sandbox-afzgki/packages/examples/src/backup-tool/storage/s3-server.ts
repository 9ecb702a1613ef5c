// @ts-nocheck
import type { AddressInfo } from 'node:net';
import S3rver from 's3rver';
import type { S3Connection } from './s3-connection.js';

/** An S3-compatible server in this process, for the demo's default round trip. */
export interface EmbeddedS3 {
  readonly connection: S3Connection;
  /** The bucket the server starts with. */
  readonly bucket: string;
  close(): Promise<void>;
}

const BUCKET = 'backupstats-demo';

/**
 * Starts s3rver (a real S3 REST API from the npm registry, storing objects in `directory`) on 127.0.0.1 at a
 * port the OS picks, with one bucket. It takes s3rver's fixed credentials; close the clients before `close()`.
 */
export async function startEmbeddedS3(directory: string): Promise<EmbeddedS3> {
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const { port } = (await server.run()) as AddressInfo;
  return {
    connection: {
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    },
    bucket: BUCKET,
    close: () => server.close(),
  };
}
