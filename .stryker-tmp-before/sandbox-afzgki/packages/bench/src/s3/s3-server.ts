// @ts-nocheck
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, DeleteObjectsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** An S3 REST server (s3rver) on 127.0.0.1 for the S3 benchmarks, with one bucket. */
export interface BenchS3 {
  readonly endpoint: string;
  readonly bucket: string;
  /** AWS's variables that point the demo's `s3://` storage at this server. */
  readonly env: Readonly<Record<string, string>>;
  /** A client of the server (not metered). */
  client(): S3Client;
  /** Deletes every object under `prefix`. */
  empty(prefix: string): Promise<void>;
  stop(): Promise<void>;
}

// The SDK's notice that its releases after early 2027 need Node 22 would be printed into every benchmark log.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** Starts s3rver on a port the OS picks, its objects in a temporary folder removed by `stop`. */
export async function startBenchS3(bucket = 'bench'): Promise<BenchS3> {
  const directory = await mkdtemp(join(tmpdir(), 'backupstats-bench-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  const client = (): S3Client =>
    new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: CREDENTIALS });
  const admin = client();
  await admin.send(new CreateBucketCommand({ Bucket: bucket })).catch(() => {});
  return {
    endpoint,
    bucket,
    env: {
      AWS_ENDPOINT_URL: endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    client,
    async empty(prefix) {
      for (;;) {
        const listed = await admin.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
        const objects = (listed.Contents ?? []).map((o) => ({ Key: o.Key }));
        if (objects.length === 0) return;
        await admin.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects } }));
      }
    },
    async stop() {
      admin.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
