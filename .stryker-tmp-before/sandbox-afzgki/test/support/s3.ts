// @ts-nocheck
// A real S3 REST server (s3rver, from the npm registry) and a counting, fault-injecting HTTP proxy in front of
// it, both on 127.0.0.1 at ports the OS picks, for the S3 tests. Each start returns a stop function; tests
// register it with onTestFinished.
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** s3rver's one account. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/** A running server or proxy. */
export interface Endpoint {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

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

/** One request the proxy received, as a fault policy sees it. */
export interface ProxiedRequest {
  readonly method: string;
  readonly url: string;
  /** 1 for the first request with this method and URL, 2 for the second (a retry), … */
  readonly attempt: number;
}

/** What the proxy counted. Body bytes are counted as they pass, for answered and reset requests alike. */
export interface ProxyCounts {
  requests: number;
  slowDowns: number;
  resets: number;
  requestBodyBytes: number;
  responseBodyBytes: number;
}

/** A proxy and what went through it. */
export interface S3Proxy extends Endpoint {
  readonly counts: Readonly<ProxyCounts>;
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
  const counts: ProxyCounts = { requests: 0, slowDowns: 0, resets: 0, requestBodyBytes: 0, responseBodyBytes: 0 };
  const attempts = new Map<string, number>();
  const upstream = new Agent({ keepAlive: true });
  const sockets = new Set<Socket>();

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer): void => {
    const headers = { ...req.headers };
    delete headers.expect;
    const out = request(
      { host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers, agent: upstream },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on('data', (chunk: Buffer) => {
          counts.responseBodyBytes += chunk.length;
        });
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    out.end(body);
  };

  const server = createServer((req, res) => {
    counts.requests += 1;
    const key = `${req.method} ${req.url}`;
    const attempt = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, attempt);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      counts.requestBodyBytes += chunk.length;
      chunks.push(chunk);
    });
    req.on('end', () => {
      const what = fault({ method: req.method ?? 'GET', url: req.url ?? '/', attempt });
      if (what === 'reset') {
        counts.resets += 1;
        req.socket.resetAndDestroy();
      } else if (what === 'slowdown') {
        counts.slowDowns += 1;
        counts.responseBodyBytes += SLOW_DOWN.length;
        res.writeHead(503, { 'content-type': 'application/xml', 'content-length': SLOW_DOWN.length });
        res.end(SLOW_DOWN);
      } else {
        forward(req, res, Buffer.concat(chunks));
      }
    });
  });
  // The client's keep-alive sockets must not be closed under it while idle: a request sent on a socket the
  // server is closing at that instant never reaches the server, which would make the counts disagree.
  server.keepAliveTimeout = 120_000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    counts,
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      upstream.destroy();
    },
  };
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
