// A local HTTP(S) server for the tests of the HTTP request meters: it counts every request it receives and the
// body bytes both ways, and answers by path:
// - `/bytes/N` sends N bytes (with Content-Length);
// - `/echo` reads the request body and sends it back;
// - `/status/S` answers status S with a short body;
// - `/drip/N` sends N bytes, then holds the response open until the client goes (for aborts mid-body);
// - `/reset` resets the connection once the request is read;
// - a request to upgrade the connection is answered 101, and the connection ended.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Certificate } from './self-signed-certificate.js';

/** What the server received and sent. */
export interface ServerCounts {
  connections: number;
  requests: number;
  requestBodyBytes: number;
  responseBodyBytes: number;
}

/** A running server. */
export interface StorageServer {
  readonly origin: string;
  readonly port: number;
  readonly counts: ServerCounts;
  /** Zeroes the counts. */
  reset(): void;
  stop(): Promise<void>;
}

function handle(counts: ServerCounts, req: IncomingMessage, res: ServerResponse): void {
  counts.requests += 1;
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => {
    counts.requestBodyBytes += chunk.length;
    chunks.push(chunk);
  });
  req.on('end', () => {
    const [, route, arg] = (req.url ?? '/').split('/');
    const send = (status: number, body: Buffer) => {
      counts.responseBodyBytes += body.length;
      res.writeHead(status, { 'content-length': body.length });
      res.end(body);
    };
    if (route === 'bytes') send(200, Buffer.alloc(Number(arg), 7));
    else if (route === 'echo') send(200, Buffer.concat(chunks));
    else if (route === 'status') send(Number(arg), Buffer.from(`status ${arg}\n`));
    else if (route === 'reset') req.socket.resetAndDestroy();
    else if (route === 'drip') {
      const body = Buffer.alloc(Number(arg), 1);
      counts.responseBodyBytes += body.length;
      res.writeHead(200, { 'content-length': body.length * 4 });
      res.write(body);
    } else send(404, Buffer.from('no such route\n'));
  });
}

async function listen(server: Server, scheme: 'http' | 'https', counts: ServerCounts): Promise<StorageServer> {
  const sockets = new Set<Socket>();
  server.on('upgrade', (_req: IncomingMessage, socket: Socket) => {
    counts.requests += 1;
    socket.end('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: backupstats-test\r\n\r\n');
  });
  server.on(scheme === 'https' ? 'secureConnection' : 'connection', (socket: Socket) => {
    counts.connections += 1;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // Keep-alive sockets stay open while the client may reuse them.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `${scheme}://127.0.0.1:${port}`,
    port,
    counts,
    reset() {
      counts.connections = 0;
      counts.requests = 0;
      counts.requestBodyBytes = 0;
      counts.responseBodyBytes = 0;
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Starts the server on 127.0.0.1 on a free port; with a certificate, over TLS. */
export function startStorageServer(certificate?: Certificate): Promise<StorageServer> {
  const counts: ServerCounts = { connections: 0, requests: 0, requestBodyBytes: 0, responseBodyBytes: 0 };
  const onRequest = (req: IncomingMessage, res: ServerResponse) => handle(counts, req, res);
  // Over plain HTTP, a request without a Host header is answered too: the meter is tested on one.
  return certificate === undefined
    ? listen(createServer({ requireHostHeader: false }, onRequest), 'http', counts)
    : listen(createTlsServer(certificate, onRequest), 'https', counts);
}
