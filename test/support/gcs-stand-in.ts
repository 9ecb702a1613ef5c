// A local HTTP server that stands in for Google Cloud Storage's JSON API, because no GCS server installs here (none
// is on the npm registry or in Debian): it answers the calls @google-cloud/storage makes for multipart and resumable
// uploads and media downloads, keeps objects in memory, counts requests and body bytes, and answers 503 to the
// requests it is told to.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { CRC32C } from '@google-cloud/storage';

/** The object's hashes as GCS gives them (base64), which the library checks uploads and downloads against. */
function hashes(object: Buffer): { crc32c: string; md5Hash: string } {
  const crc32c = new CRC32C();
  crc32c.update(object);
  return { crc32c: crc32c.toString(), md5Hash: createHash('md5').update(object).digest('base64') };
}

export interface StandIn {
  readonly origin: string;
  readonly counts: { requests: number; unavailable: number; requestBodyBytes: number; responseBodyBytes: number };
  /** Answers 503 to the requests whose 1-based numbers are given. */
  failing: Set<number>;
  stop(): Promise<void>;
}

/** The stand-in: objects in memory, named by bucket and object. */
export async function startStandIn(): Promise<StandIn> {
  const objects = new Map<string, Buffer>();
  const uploads = new Map<string, string>();
  const sockets = new Set<Socket>();
  const counts = { requests: 0, unavailable: 0, requestBodyBytes: 0, responseBodyBytes: 0 };
  const standIn = { counts, failing: new Set<number>() } as StandIn & { origin: string };
  const send = (res: ServerResponse, status: number, body: Buffer | string, headers: Record<string, string> = {}) => {
    const bytes = Buffer.from(body);
    counts.responseBodyBytes += bytes.length;
    res.writeHead(status, { 'content-length': String(bytes.length), ...headers });
    res.end(bytes);
  };
  const json = (res: ServerResponse, bucket: string, name: string) => {
    const object = objects.get(`${bucket}/${name}`) ?? Buffer.alloc(0);
    const metadata = { kind: 'storage#object', bucket, name, size: String(object.length), ...hashes(object) };
    send(res, 200, JSON.stringify(metadata), { 'content-type': 'application/json' });
  };
  const handle = (req: IncomingMessage, res: ServerResponse, body: Buffer): void => {
    const url = new URL(req.url ?? '/', standIn.origin);
    const upload = /^\/upload\/storage\/v1\/b\/([^/]+)\/o$/.exec(url.pathname);
    const media = /^(?:\/storage\/v1)?\/b\/([^/]+)\/o\/([^/]+)$/.exec(url.pathname);
    if (upload !== null && req.method === 'POST' && url.searchParams.get('uploadType') === 'multipart') {
      // multipart/related: the metadata part, then the media part; the media is between the second part's blank
      // line and the closing boundary.
      const boundary = `--${/boundary=([^;]+)/.exec(req.headers['content-type'] ?? '')?.[1]}`;
      const text = body.toString('latin1');
      const second = text.indexOf(boundary, boundary.length);
      const start = text.indexOf('\r\n\r\n', second) + 4;
      const end = text.lastIndexOf(`\r\n${boundary}--`);
      const name = url.searchParams.get('name') ?? '';
      objects.set(`${upload[1]}/${name}`, body.subarray(start, end));
      json(res, upload[1] as string, name);
    } else if (upload !== null && req.method === 'POST' && url.searchParams.get('uploadType') === 'resumable') {
      const id = randomBytes(8).toString('hex');
      const name = url.searchParams.get('name') ?? (JSON.parse(body.toString() || '{}') as { name?: string }).name;
      uploads.set(id, `${upload[1]}/${name}`);
      send(res, 200, '', { location: `${standIn.origin}${url.pathname}?uploadType=resumable&upload_id=${id}` });
    } else if (upload !== null && req.method === 'PUT') {
      const key = uploads.get(url.searchParams.get('upload_id') ?? '') ?? '';
      objects.set(key, Buffer.concat([objects.get(key) ?? Buffer.alloc(0), body]));
      const slash = key.indexOf('/');
      json(res, key.slice(0, slash), key.slice(slash + 1));
    } else if (media !== null && req.method === 'GET' && url.searchParams.get('alt') === 'media') {
      const object = objects.get(`${media[1]}/${decodeURIComponent(media[2] as string)}`);
      if (object === undefined) send(res, 404, '{"error":{"code":404}}');
      else {
        const { crc32c, md5Hash } = hashes(object);
        send(res, 200, object, { 'x-goog-hash': `crc32c=${crc32c},md5=${md5Hash}` });
      }
    } else if (media !== null && req.method === 'GET') {
      json(res, media[1] as string, decodeURIComponent(media[2] as string));
    } else {
      send(res, 404, '{"error":{"code":404,"message":"not in the stand-in"}}');
    }
  };
  const server = createServer((req, res) => {
    counts.requests += 1;
    const number = counts.requests;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      counts.requestBodyBytes += chunk.length;
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (standIn.failing.has(number)) {
        counts.unavailable += 1;
        send(res, 503, '{"error":{"code":503,"message":"We encountered an internal error. Please try again."}}');
      } else {
        handle(req, res, Buffer.concat(chunks));
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn.stop = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return standIn;
}
