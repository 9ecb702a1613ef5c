// Azurite (npm `azurite`, Microsoft's Azure Storage server) on 127.0.0.1 at a port the OS picks, and a counting
// proxy in front of any HTTP server that can answer 503 ServerBusy to every Nth request, for the Azure tests.
import { Agent, createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { BlobServiceClient, type StoragePipelineOptions, StorageSharedKeyCredential } from '@azure/storage-blob';
import { AZURITE_ACCOUNT, AZURITE_KEY, startAzuriteBlob } from '@backupstats/testkit/azurite';

export { AZURITE_ACCOUNT, AZURITE_KEY };

/** A running server or proxy. */
export interface Endpoint {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** Starts azurite-blob with its data in a new temporary folder (removed by `stop`). */
export async function startAzurite(): Promise<Endpoint> {
  const server = await startAzuriteBlob();
  return { url: `http://127.0.0.1:${server.port}`, port: server.port, stop: () => server.stop() };
}

/** What the proxy received and answered. */
export interface ProxyCounts {
  requests: number;
  serverBusy: number;
  requestBodyBytes: number;
  responseBodyBytes: number;
}

/** A running proxy and its counts. */
export interface CountingProxy extends Endpoint {
  readonly counts: ProxyCounts;
  /** Answers 503 ServerBusy to every `n`th request from now on (0: none). */
  busyEvery(n: number): void;
}

const SERVER_BUSY = Buffer.from(
  '<?xml version="1.0" encoding="utf-8"?><Error><Code>ServerBusy</Code><Message>The server is busy.</Message></Error>',
);

/** Starts a proxy to `target` on 127.0.0.1 that counts every request and the body bytes both ways. */
export async function startCountingProxy(target: Endpoint): Promise<CountingProxy> {
  const counts: ProxyCounts = { requests: 0, serverBusy: 0, requestBodyBytes: 0, responseBodyBytes: 0 };
  let every = 0;
  const upstream = new Agent({ keepAlive: true });
  const sockets = new Set<Socket>();

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer): void => {
    const out = request(
      {
        host: '127.0.0.1',
        port: target.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
        agent: upstream,
      },
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
    const busy = every > 0 && counts.requests % every === 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      counts.requestBodyBytes += chunk.length;
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (busy) {
        counts.serverBusy += 1;
        counts.responseBodyBytes += SERVER_BUSY.length;
        res.writeHead(503, {
          'content-type': 'application/xml',
          'content-length': SERVER_BUSY.length,
          'x-ms-error-code': 'ServerBusy',
        });
        res.end(SERVER_BUSY);
      } else {
        forward(req, res, Buffer.concat(chunks));
      }
    });
  });
  // The client's keep-alive sockets must not be closed under it while idle: a request sent on a socket the server
  // is closing at that instant never reaches the server, which would make the counts disagree.
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
    busyEvery(n: number) {
      every = n;
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      upstream.destroy();
    },
  };
}

/**
 * A service client of the development account at `endpoint`, retrying at once (the SDK waits seconds by default),
 * up to `maxTries` tries per operation.
 */
export function blobService(endpoint: Endpoint, options: StoragePipelineOptions = {}): BlobServiceClient {
  return new BlobServiceClient(
    `${endpoint.url}/${AZURITE_ACCOUNT}`,
    new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY),
    { retryOptions: { maxTries: 5, retryDelayInMs: 1, maxRetryDelayInMs: 5 }, ...options },
  );
}
