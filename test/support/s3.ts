// A real S3 REST server (s3rver, from the npm registry) and a counting, fault-injecting HTTP proxy in front of
// it, both on 127.0.0.1 at ports the OS picks, for the S3 tests. Each start returns a stop function; tests
// register it with onTestFinished.
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { type Endpoint, type ProxiedRequest, type ProxyCounts, startCountingProxy } from './counting-proxy.js';

export type { Endpoint, ProxiedRequest };

/** s3rver's one account. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/** Starts s3rver on 127.0.0.1 with its data in a new temporary folder (removed by `stop`). */
export async function startS3Server(): Promise<Endpoint> {
  const directory = await mkdtemp(join(tmpdir(), 'backupstats-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = (await server.run()) as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async stop() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** What the proxy does with one request it received. */
export type Fault = 'slowdown' | 'reset' | undefined;

/** What the proxy counted: every request and body byte, and the faults it made. */
export interface S3ProxyCounts extends ProxyCounts {
  slowDowns: number;
  resets: number;
}

/** A proxy and what went through it. */
export interface S3Proxy extends Endpoint {
  readonly counts: Readonly<S3ProxyCounts>;
}

const SLOW_DOWN = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>',
);

/**
 * An HTTP proxy on 127.0.0.1 in front of `target` that counts every request and the body bytes both ways,
 * and, where `fault` says, answers `503 SlowDown` (as S3 does) or resets the connection instead of
 * forwarding. It reads each request body whole first, so that a fault comes after the attempt was sent.
 */
export async function startS3Proxy(
  target: Endpoint,
  fault: (request: ProxiedRequest) => Fault = () => undefined,
): Promise<S3Proxy> {
  const counts: S3ProxyCounts = { requests: 0, slowDowns: 0, resets: 0, requestBodyBytes: 0, responseBodyBytes: 0 };
  const proxy = await startCountingProxy(target, counts, (request) => {
    const what = fault(request);
    if (what === 'reset') {
      counts.resets += 1;
      return 'reset';
    }
    if (what === 'slowdown') {
      counts.slowDowns += 1;
      return { status: 503, headers: { 'content-type': 'application/xml' }, body: SLOW_DOWN };
    }
    return undefined;
  });
  return { ...proxy, counts };
}

/** An S3 client for s3rver (or a proxy in front of it): path-style addressing, s3rver's credentials. */
export function s3Client(endpoint: Endpoint, config: S3ClientConfig = {}): S3Client {
  return new S3Client({
    endpoint: endpoint.url,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
    ...config,
  });
}
