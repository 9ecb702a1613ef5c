// meterHttpRequests against local HTTP servers of the test's own, in this process, with the clients of Node itself:
// fetch (undici) and http.request. Every attempt the server received is one HTTP:Request:Send with the bytes it
// counted; failures and throttling come from what the server answered or did to the connection. The same over TLS
// (an openssl certificate, a child process) is test/e2e/http-tls.test.ts.
import { Agent, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { createBackupStats } from 'backupstats';
import { HttpOperation, meterHttpRequests } from 'backupstats/http';
import { createRecordingStats, noopStats, type RecordingStats } from 'backupstats/testing';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { freePort } from '../support/free-port.js';
import { type StorageServer, startStorageServer } from '../support/http-storage.js';
import { expectWorkloadRecorded, nodeRequest, STATUSES, totals, workload } from '../support/http-workload.js';

let plain: StorageServer;
let other: StorageServer;

beforeAll(async () => {
  [plain, other] = await Promise.all([startStorageServer(), startStorageServer()]);
});
afterAll(async () => {
  await Promise.all([plain?.stop(), other?.stop()]);
});

/** Recording stats metered on `origin`, unmetered when the test ends; the servers' counts start from zero. */
function metered(origin: string | string[]): RecordingStats {
  for (const server of [plain, other]) server.reset();
  const stats = createRecordingStats();
  const unmeter = meterHttpRequests(stats, { origin });
  onTestFinished(unmeter);
  return stats;
}

describe('meterHttpRequests', () => {
  it('meters fetch: one Send per request with both bodies as the server counted them, 4xx/5xx failed, 429/503 throttled', async () => {
    const stats = metered(plain.origin);
    const started = performance.now();
    const statuses = await workload(async (path, method, body) => {
      const response = await fetch(`${plain.origin}${path}`, body === undefined ? { method } : { method, body });
      await response.arrayBuffer();
      return response.status;
    });
    expect(statuses).toEqual(STATUSES);
    await expectWorkloadRecorded(stats, plain, started);
  });

  it('meters http.request the same way', async () => {
    const stats = metered(plain.origin);
    const started = performance.now();
    const statuses = await workload(
      async (path, method, body) => (await nodeRequest(`${plain.origin}${path}`, { method, body })).status,
    );
    expect(statuses).toEqual(STATUSES);
    await expectWorkloadRecorded(stats, plain, started);
  });

  it('counts a fetch body streamed without a declared length as undici sends its chunks', async () => {
    const streamed = metered(plain.origin);
    const chunks = [Buffer.alloc(3000, 1), Buffer.alloc(5000, 2)];
    const response = await fetch(`${plain.origin}/echo`, {
      method: 'PUT',
      body: new ReadableStream({
        pull(controller) {
          const chunk = chunks.shift();
          if (chunk === undefined) controller.close();
          else controller.enqueue(chunk);
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect((await response.arrayBuffer()).byteLength).toBe(8000);
    await expect.poll(() => totals(streamed, HttpOperation.RequestSend)).toMatchObject({ count: 1, bytes: 16_000 });
  });

  it('counts every request sent on a reused keep-alive socket as its own attempt', async () => {
    const stats = metered(plain.origin);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    onTestFinished(() => agent.destroy());
    const sequential = [];
    for (let i = 0; i < 4; i++) sequential.push(await nodeRequest(`${plain.origin}/bytes/1000`, { agent }));
    const concurrent = await Promise.all(
      Array.from({ length: 4 }, () => nodeRequest(`${plain.origin}/bytes/1000`, { agent })),
    );
    expect([...sequential, ...concurrent].map((r) => r.status)).toEqual(Array(8).fill(200));
    // One connection carried all eight.
    expect(plain.counts.connections).toBe(1);
    await expect.poll(() => totals(stats, HttpOperation.RequestSend)).toMatchObject({ count: 8, bytes: 8000 });
    expect(plain.counts.requests).toBe(8);
    expect(totals(stats, HttpOperation.RequestFailed).count).toBe(0);
  });

  it('counts a chunked node:http body as it went over the wire, chunk framing included, on new and reused sockets', async () => {
    const chunks = [Buffer.alloc(1000, 1), Buffer.alloc(70_000, 2), Buffer.alloc(5, 3)];
    // Each chunk goes out as "<size in hex>\r\n<chunk>\r\n", and the body ends with "0\r\n\r\n".
    const wire = chunks.reduce((sum, chunk) => sum + chunk.length.toString(16).length + 4 + chunk.length, 5);
    const decoded = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    const stats = metered(plain.origin);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    onTestFinished(() => agent.destroy());
    for (let i = 0; i < 3; i++) {
      await new Promise<void>((resolve, reject) => {
        // A header byte above 0x7f: Node writes headers as latin1, one byte a character.
        const headers = { 'x-note': 'caf\u00e9' };
        const req = httpRequest(`${plain.origin}/echo`, { method: 'PUT', agent, headers }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        for (const chunk of chunks) req.write(chunk);
        req.end();
      });
    }
    expect(plain.counts.connections).toBe(1);
    expect(plain.counts.requestBodyBytes).toBe(3 * decoded);
    await expect.poll(() => totals(stats, HttpOperation.RequestSend).count).toBe(3);
    // Sent: the body on the wire; received: the echoed body.
    expect(totals(stats, HttpOperation.RequestSend).bytes).toBe(3 * (wire + decoded));
  });

  it('records a response aborted mid-body as a failed attempt with the bytes that came, for fetch and http.request', async () => {
    const stats = metered(plain.origin);
    // fetch: read the first chunk, then abort.
    const controller = new AbortController();
    const response = await fetch(`${plain.origin}/drip/1000`, { signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(first.value?.byteLength).toBe(1000);
    controller.abort();
    await expect(reader.read()).rejects.toThrow();
    await expect.poll(() => totals(stats, HttpOperation.RequestFailed)).toMatchObject({ count: 1, bytes: 1000 });

    // http.request: destroy the response after its first chunk.
    await new Promise<void>((resolve) => {
      httpRequest(`${plain.origin}/drip/2000`, (res) => {
        res.once('data', () => res.destroy());
        res.once('close', () => resolve());
      }).end();
    });
    await expect.poll(() => totals(stats, HttpOperation.RequestFailed)).toMatchObject({ count: 2, bytes: 3000 });
    expect(totals(stats, HttpOperation.RequestSend)).toMatchObject({ count: 2, bytes: 3000 });
  });

  it('records requests that timed out as failed attempts, for fetch and http.request', async () => {
    const stats = metered(plain.origin);
    // The server sends part of the body, then nothing: the clients give up.
    const response = await fetch(`${plain.origin}/drip/100`, { signal: AbortSignal.timeout(200) });
    await expect(response.arrayBuffer()).rejects.toThrow();
    await new Promise<void>((resolve) => {
      const req = httpRequest(`${plain.origin}/drip/100`, { timeout: 200 }, (res) => {
        res.resume();
        res.once('close', () => resolve());
      });
      req.once('timeout', () => req.destroy(new Error('timed out')));
      req.once('error', () => {});
      req.end();
    });
    await expect.poll(() => totals(stats, HttpOperation.RequestFailed)).toMatchObject({ count: 2, bytes: 200 });
    expect(totals(stats, HttpOperation.RequestSend).count).toBe(2);
  });

  it('records a request aborted while its body is being written as a failed attempt of no known duration', async () => {
    const stats = metered(plain.origin);
    const controller = new AbortController();
    const req = httpRequest(`${plain.origin}/echo`, { method: 'PUT', signal: controller.signal });
    const failed = new Promise((resolve) => req.once('error', resolve));
    req.write(Buffer.alloc(10_000));
    controller.abort();
    expect(await failed).toMatchObject({ name: 'AbortError' });
    await expect.poll(() => totals(stats, HttpOperation.RequestFailed).count).toBe(1);
    expect(totals(stats, HttpOperation.RequestSend).count).toBe(1);
    // Weight 0: no duration enters the latency histogram.
    expect(stats.calls.map((call) => call.weight)).toEqual([0, 0]);
  });

  it('records a connection the server resets as a failed attempt, for fetch and http.request', async () => {
    const stats = metered(plain.origin);
    await expect(fetch(`${plain.origin}/reset`)).rejects.toThrow();
    await expect(nodeRequest(`${plain.origin}/reset`)).rejects.toThrow(/ECONNRESET|socket hang up/);
    await expect.poll(() => totals(stats, HttpOperation.RequestFailed).count).toBe(2);
    expect(totals(stats, HttpOperation.RequestSend).count).toBe(2);
    expect(plain.counts.requests).toBe(2);
  });

  it('meters only the origins it was given: another port of the same host is not metered, an array meters both', async () => {
    const one = metered(plain.origin);
    await fetch(`${other.origin}/bytes/10`).then((r) => r.arrayBuffer());
    await nodeRequest(`${other.origin}/bytes/10`);
    await fetch(`${plain.origin}/bytes/10`).then((r) => r.arrayBuffer());
    await nodeRequest(`${plain.origin}/bytes/10`);
    await expect.poll(() => totals(one, HttpOperation.RequestSend).count).toBe(2);
    expect(other.counts.requests).toBe(2);

    // Failures to another origin are not metered either.
    await expect(fetch(`${other.origin}/reset`)).rejects.toThrow();
    await expect(nodeRequest(`${other.origin}/reset`)).rejects.toThrow();
    expect(totals(one, HttpOperation.RequestSend).count).toBe(2);

    const both = metered([plain.origin, other.origin]);
    await fetch(`${other.origin}/bytes/10`).then((r) => r.arrayBuffer());
    await nodeRequest(`${plain.origin}/bytes/10`);
    await expect.poll(() => totals(both, HttpOperation.RequestSend)).toMatchObject({ count: 2, bytes: 20 });
  });

  it('records nothing once the function it returned was called', async () => {
    plain.reset();
    const stats = createRecordingStats();
    const unmeter = meterHttpRequests(stats, { origin: plain.origin });
    unmeter();
    unmeter();
    await fetch(`${plain.origin}/bytes/10`).then((r) => r.arrayBuffer());
    await nodeRequest(`${plain.origin}/bytes/10`);
    expect(plain.counts.requests).toBe(2);
    expect(stats.calls).toEqual([]);
  });

  it('keeps the labels the caller set: implementation GCS, family scope', async () => {
    const stats = createRecordingStats();
    onTestFinished(meterHttpRequests(stats.scope({ implementation: 'GCS' }), { origin: `${plain.origin}/` }));
    await fetch(`${plain.origin}/bytes/10`).then((r) => r.arrayBuffer());
    await expect.poll(() => stats.calls.length).toBe(1);
    expect(stats.calls[0]?.labels).toEqual({
      component: 'BackupStorage',
      implementation: 'GCS',
      operation: 'HTTP:Request:Send',
    });
  });

  const ACCEPTED =
    'accepted: an origin such as "https://storage.googleapis.com" or "http://127.0.0.1:10000" (http or https, host and port, no path), or an array of them';
  it.each([
    ['a path', 'http://127.0.0.1:1/bucket', '"http://127.0.0.1:1/bucket" (it has more than scheme, host and port)'],
    ['a query', 'http://127.0.0.1:1?a', '"http://127.0.0.1:1?a" (it has more than scheme, host and port)'],
    ['a fragment', 'http://127.0.0.1:1#a', '"http://127.0.0.1:1#a" (it has more than scheme, host and port)'],
    ['a user', 'http://me@127.0.0.1:1', '"http://me@127.0.0.1:1" (it has more than scheme, host and port)'],
    ['a password', 'http://:pw@127.0.0.1:1', '"http://:pw@127.0.0.1:1" (it has more than scheme, host and port)'],
    ['another scheme', 'ftp://127.0.0.1', '"ftp://127.0.0.1" (the scheme is ftp:)'],
    ['not a URL', '127.0.0.1:80', '"127.0.0.1:80" (not a URL)'],
    ['no origin', [], '[] (no origin)'],
    ['a number', 80, '80 (not a string)'],
    ['an array holding a number', ['http://127.0.0.1:1', 80], '80 (not a string)'],
  ])('refuses an origin that is %s with a TypeError naming the option, the value and why', (_, origin, shown) => {
    expect(() => meterHttpRequests(createRecordingStats(), { origin: origin as string })).toThrow(
      expect.objectContaining({
        name: 'TypeError',
        code: 'BACKUPSTATS_INVALID_OPTION',
        message: `backupstats: meterHttpRequests option "origin" is ${shown}; ${ACCEPTED}`,
      }),
    );
  });

  it('refuses stats that are not Stats or have their operation set, and options left out or not an object, saying what to give', () => {
    const origin = plain.origin;
    expect(() => meterHttpRequests({} as never, { origin })).toThrow(
      expect.objectContaining({ name: 'TypeError', code: 'BACKUPSTATS_INVALID_ARGUMENT' }),
    );
    const real = createBackupStats({ meterProvider: new MeterProvider() });
    onTestFinished(() => real.shutdown());
    expect(() => meterHttpRequests(real.backup.scope({ operation: 'Mine' }), { origin })).toThrow(
      expect.objectContaining({
        code: 'BACKUPSTATS_INVALID_ARGUMENT',
        message: expect.stringMatching(
          /^backupstats: meterHttpRequests stats is an instance of \w+ \(its operation is set, so every attempt would be recorded under that one\); accepted: a Stats whose operation is unset, such as backupStats.backup or backupStats.backup.scope\(\{ implementation \}\): meterHttpRequests sets HTTP:Request:Send, … itself$/,
        ),
      }),
    );
    // Stats with other labels set are accepted.
    meterHttpRequests(real.backup.scope({ component: 'MyEngine' }), { origin })();
    expect(() => meterHttpRequests(createRecordingStats(), undefined as never)).toThrow(
      expect.objectContaining({
        code: 'BACKUPSTATS_INVALID_OPTION',
        message:
          'backupstats: meterHttpRequests options is undefined; accepted: an object such as { origin: "https://storage.googleapis.com" }',
      }),
    );
    // An origin given in place of the options: the message shows the object to give, and does not offer nothing.
    expect(() => meterHttpRequests(createRecordingStats(), origin as never)).toThrow(
      expect.objectContaining({
        code: 'BACKUPSTATS_INVALID_OPTION',
        message: expect.stringMatching(
          /^backupstats: meterHttpRequests options is "http:\/\/127\.0\.0\.1:\d+"; accepted: an object such as \{ origin: "https:\/\/storage\.googleapis\.com" \}$/,
        ),
      }),
    );
    expect(() => meterHttpRequests(createRecordingStats(), { origin, originn: 1 } as never)).toThrow(
      expect.objectContaining({
        code: 'BACKUPSTATS_INVALID_OPTION',
        message:
          'backupstats: meterHttpRequests option "originn" is not an option (did you mean "origin"?); accepted: "origin"',
      }),
    );
  });

  it('accepts the null stats, which record nothing', async () => {
    const unmeter = meterHttpRequests(noopStats, { origin: plain.origin });
    onTestFinished(unmeter);
    expect(await nodeRequest(`${plain.origin}/bytes/10`)).toMatchObject({ status: 200 });
  });
});

describe('meterHttpRequests: which requests go to the origin', () => {
  /**
   * Whether `stats` counted a request that failed to connect (to a port nothing listens on) with the Host header
   * `header`, as a failed attempt timed from its start.
   */
  async function counted(stats: RecordingStats, send: typeof httpRequest, host: string, header: string) {
    const before = stats.calls.length;
    const port = await freePort();
    await new Promise<void>((resolve) => {
      const req = send({ host, port, headers: { host: header } });
      req.once('error', () => resolve());
      req.end();
    });
    const calls = stats.calls.slice(before).map((call) => [call.labels.operation, call.weight]);
    if (calls.length === 0) return false;
    expect(calls).toEqual([
      [HttpOperation.RequestSend, 1],
      [HttpOperation.RequestFailed, 1],
    ]);
    return true;
  }

  it('takes the port from the Host header while the socket is connecting: the default of the scheme when it names none', async () => {
    const stats = metered(['http://127.0.0.1', 'https://127.0.0.1', 'http://[::1]']);
    expect([
      await counted(stats, httpRequest, '127.0.0.1', '127.0.0.1'),
      await counted(stats, httpsRequest, '127.0.0.1', '127.0.0.1'),
      await counted(stats, httpRequest, '::1', '[::1]'),
      // Another port, in the header, over either scheme; a port that is not a number.
      await counted(stats, httpRequest, '127.0.0.1', '127.0.0.1:81'),
      await counted(stats, httpsRequest, '127.0.0.1', '127.0.0.1:80'),
      await counted(stats, httpRequest, '::1', '[::1]:81'),
      await counted(stats, httpRequest, '127.0.0.1', '127.0.0.1:eighty'),
    ]).toEqual([true, true, true, false, false, false, false]);
  });

  it('takes the default port of one origin given alone, and compares its scheme', async () => {
    const http = metered('http://127.0.0.1');
    expect([
      await counted(http, httpRequest, '127.0.0.1', '127.0.0.1'),
      await counted(http, httpsRequest, '127.0.0.1', '127.0.0.1'),
      await counted(http, httpRequest, '127.0.0.1', '127.0.0.1:443'),
      await counted(http, httpsRequest, '127.0.0.1', '127.0.0.1:80'),
    ]).toEqual([true, false, false, false]);
    const https = metered('https://127.0.0.1');
    expect([
      await counted(https, httpsRequest, '127.0.0.1', '127.0.0.1'),
      await counted(https, httpRequest, '127.0.0.1', '127.0.0.1'),
      await counted(https, httpsRequest, '127.0.0.1', '127.0.0.1:80'),
    ]).toEqual([true, false, false]);
  });

  it('leaves a request to the port of the origin over the other scheme, or to another host, unmetered', async () => {
    const port = plain.port;
    const single = metered(`https://127.0.0.1:${port}`);
    const otherHost = createRecordingStats();
    onTestFinished(meterHttpRequests(otherHost, { origin: `http://localhost:${port}` }));
    const several = createRecordingStats();
    onTestFinished(meterHttpRequests(several, { origin: [`https://127.0.0.1:${port}`, `http://localhost:${port}`] }));
    await nodeRequest(`${plain.origin}/bytes/10`);
    await fetch(`${plain.origin}/bytes/10`).then((r) => r.arrayBuffer());
    expect(plain.counts.requests).toBe(2);
    expect(single.calls).toEqual([]);
    expect(otherHost.calls).toEqual([]);
    expect(several.calls).toEqual([]);
  });

  it('drops a request whose Host header names the origin but whose socket went to another port, as through a proxy', async () => {
    const stats = metered(other.origin);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    onTestFinished(() => agent.destroy());
    const viaPlain = () =>
      new Promise<void>((resolve, reject) => {
        const req = httpRequest(
          `${plain.origin}/bytes/10`,
          { agent, headers: { host: `127.0.0.1:${other.port}` } },
          (res) => {
            res.resume();
            res.on('end', resolve);
          },
        );
        req.on('error', reject);
        req.end();
      });
    // A new socket, then the same one reused.
    await viaPlain();
    await viaPlain();
    expect(plain.counts).toMatchObject({ connections: 1, requests: 2 });
    // Their closes did not count them as attempts that ended without a response either: only this one counts.
    await nodeRequest(`${other.origin}/bytes/10`);
    await expect.poll(() => stats.calls.length).toBe(1);
    expect(stats.calls[0]).toMatchObject({ bytes: 10, labels: { operation: HttpOperation.RequestSend } });
  });

  it('drops such a request when it fails after its response came, on a new socket or a reused one', async () => {
    const stats = metered(other.origin);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    onTestFinished(() => agent.destroy());
    const viaPlain = (bytes: number, giveUp: boolean) =>
      new Promise<Error | undefined>((resolve) => {
        const headers = { host: `127.0.0.1:${other.port}` };
        const req = httpRequest(`${plain.origin}/bytes/${bytes}`, { agent, headers }, (res) => {
          if (giveUp) req.destroy(new Error('given up mid-body'));
          else res.resume().on('end', () => resolve(undefined));
        });
        req.on('error', resolve);
        req.end();
      });
    // The first fails on a new socket; the third on the socket the second left for reuse.
    expect(await viaPlain(100_000, true)).toMatchObject({ message: 'given up mid-body' });
    expect(await viaPlain(10, false)).toBeUndefined();
    expect(await viaPlain(100_000, true)).toMatchObject({ message: 'given up mid-body' });
    expect(plain.counts).toMatchObject({ connections: 2, requests: 3 });
    // Only this one counts.
    await nodeRequest(`${other.origin}/bytes/10`);
    await expect.poll(() => stats.calls.length).toBe(1);
    expect(stats.calls[0]).toMatchObject({ bytes: 10, labels: { operation: HttpOperation.RequestSend } });
  });

  it('records a request aborted before its start only for an origin given, alone or in an array', async () => {
    const alone = createRecordingStats();
    onTestFinished(meterHttpRequests(alone, { origin: plain.origin }));
    const stats = metered([plain.origin, `http://localhost:${plain.port}`]);
    const abortWhileWriting = async (url: string) => {
      const controller = new AbortController();
      const req = httpRequest(url, { method: 'PUT', signal: controller.signal });
      const failed = new Promise((resolve) => req.once('error', resolve));
      req.write(Buffer.alloc(10));
      controller.abort();
      await failed;
    };
    await abortWhileWriting(`${plain.origin}/echo`);
    await abortWhileWriting(`${other.origin}/echo`);
    await abortWhileWriting(`http://127.0.0.2:${plain.port}/echo`);
    await abortWhileWriting(`http://localhost:${other.port}/echo`);
    for (const recorded of [stats, alone]) {
      expect(recorded.calls.map((call) => [call.labels.operation, call.weight])).toEqual([
        [HttpOperation.RequestSend, 0],
        [HttpOperation.RequestFailed, 0],
      ]);
    }
  });

  it('meters a request without a Host header once its socket is connected, and leaves the request working', async () => {
    const stats = metered(plain.origin);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    onTestFinished(() => agent.destroy());
    const noHost = () =>
      new Promise<void>((resolve, reject) => {
        const req = httpRequest(`${plain.origin}/bytes/10`, { agent, setHost: false }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end();
      });
    await noHost();
    await noHost();
    expect(plain.counts).toMatchObject({ connections: 1, requests: 2 });
    // The first, on a new socket, had no port known at its start; the second went on the connected socket.
    await expect.poll(() => totals(stats, HttpOperation.RequestSend)).toMatchObject({ count: 1, bytes: 10 });
  });

  it('records a 400 as a failed attempt and a 399 as a sent one', async () => {
    const stats = metered(plain.origin);
    expect((await nodeRequest(`${plain.origin}/status/399`)).status).toBe(399);
    expect((await nodeRequest(`${plain.origin}/status/400`)).status).toBe(400);
    await expect.poll(() => totals(stats, HttpOperation.RequestSend).count).toBe(2);
    expect(totals(stats, HttpOperation.RequestFailed)).toMatchObject({ count: 1, bytes: 'status 400\n'.length });
    expect(totals(stats, HttpOperation.RequestThrottled).count).toBe(0);
  });

  it('counts no sent body for a chunked request on a socket reused from a request it did not meter', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    onTestFinished(() => agent.destroy());
    await nodeRequest(`${plain.origin}/bytes/10`, { agent });
    const stats = metered(plain.origin);
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${plain.origin}/echo`, { method: 'PUT', agent }, (res) => {
        expect(req.reusedSocket).toBe(true);
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.write(Buffer.alloc(100, 1));
      req.end();
    });
    // The echoed body only: how much of the socket's traffic was this request's is not known.
    await expect.poll(() => totals(stats, HttpOperation.RequestSend)).toMatchObject({ count: 1, bytes: 100 });
  });

  it('counts the declared body of a request on a socket reused from a request it did not meter', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    onTestFinished(() => agent.destroy());
    await nodeRequest(`${plain.origin}/bytes/10`, { agent });
    const stats = metered(plain.origin);
    const sent = await nodeRequest(`${plain.origin}/echo`, { method: 'PUT', body: Buffer.alloc(100, 1), agent });
    expect(sent.reused).toBe(true);
    await expect.poll(() => totals(stats, HttpOperation.RequestSend)).toMatchObject({ count: 1, bytes: 200 });
  });

  it('counts a Content-Length that is not a whole number of bytes as no body', async () => {
    const stats = metered(plain.origin);
    for (const length of ['-1', '1.5']) {
      // The server refuses the request (400, no body) as it cannot read its length.
      await new Promise<void>((resolve, reject) => {
        const req = httpRequest(
          `${plain.origin}/echo`,
          { method: 'PUT', headers: { 'content-length': length } },
          (res) => {
            expect(res.statusCode).toBe(400);
            res.resume();
            res.on('end', resolve);
          },
        );
        req.on('error', reject);
        req.end('abc');
      });
    }
    await expect.poll(() => totals(stats, HttpOperation.RequestFailed).count).toBe(2);
    expect(stats.calls.map((call) => call.bytes)).toEqual([0, 0, 0, 0]);
  });

  it('ends an attempt answered by no HTTP response and no error (a protocol switch) as failed when it closes', async () => {
    const stats = metered(plain.origin);
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${plain.origin}/`, { headers: { connection: 'Upgrade', upgrade: 'backupstats-test' } });
      req.on('upgrade', (_res, socket) => socket.destroy());
      req.on('close', resolve);
      req.on('error', reject);
      req.end();
    });
    expect(plain.counts.requests).toBe(1);
    expect(stats.calls.map((call) => [call.labels.operation, call.bytes, call.weight])).toEqual([
      [HttpOperation.RequestSend, 0, 1],
      [HttpOperation.RequestFailed, 0, 1],
    ]);
  });
});

describe('meterHttpRequests on a runtime without diagnostics_channel.subscribe', () => {
  it('refuses to start, naming the Node.js it needs', async () => {
    // Node.js before 20.6 lacks the function: the library is loaded anew with node:diagnostics_channel without it.
    vi.doMock('node:diagnostics_channel', async (importOriginal) => ({
      ...(await importOriginal<typeof import('node:diagnostics_channel')>()),
      subscribe: undefined,
    }));
    vi.resetModules();
    onTestFinished(() => {
      vi.doUnmock('node:diagnostics_channel');
      vi.resetModules();
    });
    const http = await import('backupstats/http');
    const testing = await import('backupstats/testing');
    expect(() => http.meterHttpRequests(testing.createRecordingStats(), { origin: 'http://127.0.0.1:1' })).toThrow(
      expect.objectContaining({
        name: 'TypeError',
        code: 'BACKUPSTATS_UNSUPPORTED_RUNTIME',
        message: `backupstats: meterHttpRequests: this runtime (Node.js ${process.versions.node}) is without diagnostics_channel.subscribe; accepted: Node.js 20.6 or later, which publishes the channels http.client.request.start, http.client.response.finish and undici:request:*`,
      }),
    );
  });
});
