// A counting HTTP proxy on 127.0.0.1 at a port the OS picks, in front of a storage server of the tests (s3rver,
// Azurite): it counts every request and the body bytes both ways, and a hook may answer a request itself (a
// throttling error, a reset) instead of forwarding it. It reads each request body whole first, so that an answer of
// the hook comes after the attempt was sent.
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A running server or proxy. */
export interface Endpoint {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** One request the proxy received, as its hook sees it. */
export interface ProxiedRequest {
  readonly method: string;
  readonly url: string;
  /** 1 for the proxy's first request, 2 for its second, …, in the order they arrived. */
  readonly index: number;
  /** 1 for the first request with this method and URL, 2 for the second (a retry), … */
  readonly attempt: number;
}

/** What the proxy does with a request: forward it (undefined), reset its connection, or answer it itself. */
export type ProxyAnswer =
  | undefined
  | 'reset'
  | { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: Buffer };

/** What every proxy counts. Body bytes are counted as they pass, for answered and reset requests alike. */
export interface ProxyCounts {
  requests: number;
  requestBodyBytes: number;
  responseBodyBytes: number;
}

/** Starts the proxy to `target`; it adds to `counts`, which the caller may extend with counts of its own. */
export async function startCountingProxy(
  target: Endpoint,
  counts: ProxyCounts,
  answer: (request: ProxiedRequest) => ProxyAnswer = () => undefined,
): Promise<Endpoint> {
  const attempts = new Map<string, number>();
  const upstream = new Agent({ keepAlive: true });
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    counts.requests += 1;
    const index = counts.requests;
    const key = `${req.method} ${req.url}`;
    const attempt = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, attempt);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      counts.requestBodyBytes += chunk.length;
      chunks.push(chunk);
    });
    req.on('end', () => {
      const what = answer({ method: req.method ?? 'GET', url: req.url ?? '/', index, attempt });
      if (what === 'reset') {
        req.socket.resetAndDestroy();
      } else if (what !== undefined) {
        counts.responseBodyBytes += what.body.length;
        res.writeHead(what.status, { ...what.headers, 'content-length': what.body.length });
        res.end(what.body);
      } else {
        // An S3 client's `Expect: 100-continue` was answered by this proxy's reading of the body.
        const headers = { ...req.headers };
        delete headers.expect;
        const out = request(
          { host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers, agent: upstream },
          (response) => {
            res.writeHead(response.statusCode ?? 502, response.headers);
            response.on('data', (chunk: Buffer) => {
              counts.responseBodyBytes += chunk.length;
            });
            response.pipe(res);
          },
        );
        out.on('error', () => res.destroy());
        out.end(Buffer.concat(chunks));
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
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      upstream.destroy();
    },
  };
}
