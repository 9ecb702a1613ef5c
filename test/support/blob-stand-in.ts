// A local HTTP server on 127.0.0.1 that stands in for Azure Blob storage, in the test's own process, for the unit
// tests of meterBlobClient (test/azure runs against Azurite, the real server, in the e2e tier). It answers the few
// calls those tests make (create and delete a container; stage, commit and put block blobs; create append and page blobs and
// write to them; download, get properties and the block list, delete; copy from a URL), keeps the blobs in memory, and counts every
// request and the body bytes both ways. A test may answer a request itself instead (`intercept`): an error status,
// a reset connection, or a body cut off halfway.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the stand-in received and sent. */
export interface BlobStandInCounts {
  requests: number;
  requestBodyBytes: number;
  responseBodyBytes: number;
}

/** One request, as `intercept` sees it. */
export interface InterceptedRequest {
  readonly method: string;
  /** The path and query. */
  readonly url: string;
  /** 1 for the first request since the last `reset`, 2 for the second, … */
  readonly index: number;
}

/**
 * What the stand-in does with a request: answer it as Blob storage would (undefined); reset its connection; answer
 * an error (`status`, `code`: the `x-ms-error-code`); or send a download's head and `cut` of its `length`
 * bytes, then close the connection.
 */
export type Interception =
  | undefined
  | 'reset'
  | { readonly status: number; readonly code: string }
  | { readonly cut: number; readonly length: number };

/** A running stand-in. */
export interface BlobStandIn {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly counts: BlobStandInCounts;
  /** Called with every request; what it returns decides the answer. */
  intercept: (request: InterceptedRequest) => Interception;
  /** Zeroes the counts and answers every request as Blob storage would from now on. */
  reset(): void;
  stop(): Promise<void>;
}

const answerAll = (): Interception => undefined;

/** The body of an error answer, as Blob storage words it. */
export const errorBody = (code: string): Buffer =>
  Buffer.from(`<?xml version="1.0" encoding="utf-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`);

/** Starts the stand-in on a port the OS picks. */
export async function startBlobStandIn(): Promise<BlobStandIn> {
  const containers = new Set<string>();
  const blobs = new Map<string, { type: string; data: Buffer }>();
  const blocks = new Map<string, Buffer>();
  const sockets = new Set<Socket>();
  const counts: BlobStandInCounts = { requests: 0, requestBodyBytes: 0, responseBodyBytes: 0 };
  const standIn: BlobStandIn = {
    origin: '',
    counts,
    intercept: answerAll,
    reset() {
      counts.requests = 0;
      counts.requestBodyBytes = 0;
      counts.responseBodyBytes = 0;
      standIn.intercept = answerAll;
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  /** What one request is answered. */
  interface Answer {
    readonly status: number;
    readonly body?: Buffer;
    readonly headers?: Record<string, string>;
  }
  const send = (res: ServerResponse, { status, body = Buffer.alloc(0), headers = {} }: Answer): void => {
    const bodyless = res.req.method === 'HEAD' || status === 204 || status === 304;
    if (!bodyless) counts.responseBodyBytes += body.length;
    res.writeHead(status, {
      'content-length': String(body.length),
      etag: '"0x8D0000000000001"',
      'last-modified': new Date(0).toUTCString(),
      'x-ms-request-id': '00000000-0000-0000-0000-000000000000',
      'x-ms-version': '2025-01-05',
      ...headers,
    });
    res.end(bodyless ? undefined : body);
  };
  const fail = (status: number, code: string): Answer => ({
    status,
    body: errorBody(code),
    headers: { 'content-type': 'application/xml', 'x-ms-error-code': code },
  });

  const answer = (req: IncomingMessage, body: Buffer): Answer => {
    const url = new URL(req.url ?? '/', standIn.origin);
    const query = url.searchParams;
    // /<account>/<container>[/<blob>]
    const [, , container = '', ...rest] = url.pathname.split('/');
    const key = `${container}/${decodeURIComponent(rest.join('/'))}`;
    const method = req.method;
    const blob = blobs.get(key);
    if (query.get('restype') === 'container') {
      if (method === 'PUT' && query.get('comp') === null) {
        if (containers.has(container)) return fail(409, 'ContainerAlreadyExists');
        containers.add(container);
        return { status: 201 };
      }
      if (!containers.has(container)) return fail(404, 'ContainerNotFound');
      if (method === 'DELETE') {
        containers.delete(container);
        return { status: 202 };
      }
      return { status: 200 };
    }
    if (method === 'PUT') {
      if (!containers.has(container)) return fail(404, 'ContainerNotFound');
      const comp = query.get('comp');
      if (comp === 'block') {
        blocks.set(`${key}#${query.get('blockid')}`, body);
        return { status: 201 };
      }
      if (comp === 'blocklist') {
        const ids = [...body.toString().matchAll(/<(?:Latest|Uncommitted|Committed)>([^<]*)</g)].map((m) => m[1]);
        const data = Buffer.concat(ids.map((id) => blocks.get(`${key}#${id}`) ?? Buffer.alloc(0)));
        blobs.set(key, { type: 'BlockBlob', data });
        return { status: 201 };
      }
      if (comp === 'appendblock' || comp === 'page') {
        if (blob === undefined) return fail(404, 'BlobNotFound');
        const range = /bytes=(\d+)-/.exec(String(req.headers['x-ms-range'] ?? req.headers.range ?? ''));
        const at = comp === 'page' && range !== null ? Number(range[1]) : blob.data.length;
        const data = Buffer.alloc(Math.max(blob.data.length, at + body.length));
        blob.data.copy(data);
        body.copy(data, at);
        blob.data = data;
        return { status: 201 };
      }
      if (comp !== null) return { status: 200 };
      const source = req.headers['x-ms-copy-source'];
      if (typeof source === 'string') {
        const from = blobs.get(new URL(source).pathname.split('/').slice(2).map(decodeURIComponent).join('/'));
        if (from === undefined) return fail(404, 'CannotVerifyCopySource');
        blobs.set(key, { type: from.type, data: Buffer.from(from.data) });
        // Put Blob From URL names the blob type and answers 201; Copy Blob From URL answers 202.
        const status = req.headers['x-ms-blob-type'] === undefined ? 202 : 201;
        return { status, headers: { 'x-ms-copy-status': 'success', 'x-ms-copy-id': 'copy' } };
      }
      const type = String(req.headers['x-ms-blob-type']);
      const length = Number(req.headers['x-ms-blob-content-length'] ?? 0);
      blobs.set(key, { type, data: type === 'PageBlob' ? Buffer.alloc(length) : body });
      return { status: 201 };
    }
    if (blob === undefined) return fail(404, 'BlobNotFound');
    if (method === 'DELETE') return { status: 202 };
    if (query.get('comp') === 'blocklist') {
      // The committed blocks are not kept apart from the blob's data: the list is empty.
      const list =
        '<?xml version="1.0" encoding="utf-8"?><BlockList><CommittedBlocks /><UncommittedBlocks /></BlockList>';
      return { status: 200, body: Buffer.from(list), headers: { 'content-type': 'application/xml' } };
    }
    // GET or HEAD of the whole blob.
    return {
      status: 200,
      body: blob.data,
      headers: { 'content-type': 'application/octet-stream', 'x-ms-blob-type': blob.type, 'accept-ranges': 'bytes' },
    };
  };

  const server = createServer((req, res) => {
    counts.requests += 1;
    const index = counts.requests;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      counts.requestBodyBytes += chunk.length;
      chunks.push(chunk);
    });
    req.on('end', () => {
      const what = standIn.intercept({ method: req.method ?? 'GET', url: req.url ?? '/', index });
      if (what === undefined) {
        send(res, answer(req, Buffer.concat(chunks)));
      } else if (what === 'reset') {
        req.socket.resetAndDestroy();
      } else if ('cut' in what) {
        counts.responseBodyBytes += what.cut;
        res.writeHead(200, {
          'content-length': String(what.length),
          'content-type': 'application/octet-stream',
          'x-ms-blob-type': 'BlockBlob',
          etag: '"0x8D0000000000001"',
          'last-modified': new Date(0).toUTCString(),
        });
        // Closed once the part sent is on its way: the client reads it, then the connection's end.
        res.write(Buffer.alloc(what.cut, 5), () => req.socket.destroy());
      } else {
        send(res, fail(what.status, what.code));
      }
    });
  });
  // The client's keep-alive sockets stay open while idle: a request sent on a socket the server is closing at that
  // instant would never reach it, and the counts would disagree.
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  (standIn as { origin: string }).origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}
