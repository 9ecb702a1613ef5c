// Google Cloud Storage through meterHttpRequests: @google-cloud/storage pointed (apiEndpoint) at a local HTTP server
// of the test's own that answers the calls of its JSON API used here (multipart and resumable uploads, media
// downloads) and answers 503 to chosen requests. The server stands in for GCS because no GCS server installs here
// (none is on the npm registry or in Debian). Every attempt the client made, retries included, must be counted.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { IdempotencyStrategy, Storage } from '@google-cloud/storage';
import { Implementation } from 'backupstats';
import { HttpOperation, meterHttpRequests } from 'backupstats/http';
import { createRecordingStats } from 'backupstats/testing';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';

interface StandIn {
  readonly origin: string;
  readonly counts: { requests: number; unavailable: number; requestBodyBytes: number; responseBodyBytes: number };
  /** Answers 503 to the requests whose 1-based numbers are given. */
  failing: Set<number>;
  stop(): Promise<void>;
}

/** The stand-in: objects in memory, named by bucket and object. */
async function startStandIn(): Promise<StandIn> {
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
  const json = (res: ServerResponse, bucket: string, name: string) =>
    send(
      res,
      200,
      JSON.stringify({ kind: 'storage#object', bucket, name, size: String(objects.get(`${bucket}/${name}`)?.length) }),
      { 'content-type': 'application/json' },
    );
  const handle = (req: IncomingMessage, res: ServerResponse, body: Buffer): void => {
    const url = new URL(req.url ?? '/', standIn.origin);
    const upload = /^\/upload\/storage\/v1\/b\/([^/]+)\/o$/.exec(url.pathname);
    const media = /^\/storage\/v1\/b\/([^/]+)\/o\/([^/]+)$/.exec(url.pathname);
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
      const [bucket, name] = key.split('/') as [string, string];
      json(res, bucket, name);
    } else if (media !== null && req.method === 'GET' && url.searchParams.get('alt') === 'media') {
      const object = objects.get(`${media[1]}/${decodeURIComponent(media[2] as string)}`);
      if (object === undefined) send(res, 404, '{"error":{"code":404}}');
      else send(res, 200, object);
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

let standIn: StandIn;
beforeAll(async () => {
  standIn = await startStandIn();
});
afterAll(async () => {
  await standIn?.stop();
});

describe('meterHttpRequests with @google-cloud/storage (JSON API, against a local stand-in for GCS)', () => {
  it('counts every attempt, retries of 503s included, as the server received them', async () => {
    const stats = createRecordingStats();
    onTestFinished(meterHttpRequests(stats.scope({ implementation: Implementation.GCS }), { origin: standIn.origin }));
    const storage = new Storage({
      apiEndpoint: standIn.origin,
      projectId: 'backups',
      // Retry uploads too (they carry no precondition here), after 1 s: the shortest wait the library allows.
      retryOptions: {
        maxRetries: 3,
        retryDelayMultiplier: 1,
        maxRetryDelay: 1,
        idempotencyStrategy: IdempotencyStrategy.RetryAlways,
      },
    });
    const bucket = storage.bucket('backups');
    const big = randomBytes(300_000);
    const small = Buffer.from('manifest: 2 objects\n');
    // Requests: 1 multipart upload (503), 2 its retry; 3 resumable start, 4 its PUT; 5 download (503), 6 its retry;
    // 7 download.
    standIn.failing = new Set([1, 5]);
    await bucket.file('db/manifest').save(small, { resumable: false, validation: false });
    await bucket.file('db/big.bin').save(big, { resumable: true, validation: false });
    const [downloaded] = await bucket.file('db/big.bin').download({ validation: false });
    expect(downloaded.equals(big)).toBe(true);
    const [manifest] = await bucket.file('db/manifest').download({ validation: false });
    expect(manifest.equals(small)).toBe(true);

    expect(standIn.counts).toMatchObject({ requests: 7, unavailable: 2 });
    await expect.poll(() => stats.totals({ operation: HttpOperation.RequestSend }).count).toBe(7);
    expect(stats.totals({ operation: HttpOperation.RequestThrottled }).count).toBe(2);
    expect(stats.totals({ operation: HttpOperation.RequestFailed }).count).toBe(0);
    // The uploads go out chunked: their bodies count as on the wire, chunk framing included (a few bytes a chunk).
    const bodies = standIn.counts.requestBodyBytes + standIn.counts.responseBodyBytes;
    const bytes = stats.totals({ operation: HttpOperation.RequestSend }).bytes;
    expect(bytes).toBeGreaterThanOrEqual(bodies);
    expect(bytes).toBeLessThan(bodies + 2_000);
    expect(stats.calls.every((call) => call.labels.implementation === 'GCS')).toBe(true);
  });
});
