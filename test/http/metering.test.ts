// meterHttpRequests against local HTTP servers of the test's own, in this process, with the clients of Node itself:
// fetch (undici) and http.request. Every attempt the server received is one HTTP:Request:Send with the bytes it
// counted; failures and throttling come from what the server answered or did to the connection. The same over TLS
// (an openssl certificate, a child process) is test/e2e/http-tls.test.ts.
import { Agent, request as httpRequest } from 'node:http';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { createBackupStats } from 'backupstats';
import { HttpOperation, meterHttpRequests } from 'backupstats/http';
import { createRecordingStats, type RecordingStats } from 'backupstats/testing';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
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
    const statuses = await workload(async (path, method, body) => {
      const response = await fetch(`${plain.origin}${path}`, body === undefined ? { method } : { method, body });
      await response.arrayBuffer();
      return response.status;
    });
    expect(statuses).toEqual(STATUSES);
    await expectWorkloadRecorded(stats, plain);
  });

  it('meters http.request the same way', async () => {
    const stats = metered(plain.origin);
    const statuses = await workload(
      async (path, method, body) => (await nodeRequest(`${plain.origin}${path}`, { method, body })).status,
    );
    expect(statuses).toEqual(STATUSES);
    await expectWorkloadRecorded(stats, plain);
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
        const req = httpRequest(`${plain.origin}/echo`, { method: 'PUT', agent }, (res) => {
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

  it.each([
    ['a path', 'http://127.0.0.1:1/bucket'],
    ['another scheme', 'ftp://127.0.0.1'],
    ['not a URL', '127.0.0.1:80'],
    ['no origin', []],
    ['a number', 80],
  ])('refuses an origin that is %s with a TypeError naming the option', (_, origin) => {
    expect(() => meterHttpRequests(createRecordingStats(), { origin: origin as string })).toThrow(
      expect.objectContaining({
        name: 'TypeError',
        code: 'BACKUPSTATS_INVALID_OPTION',
        message: expect.stringMatching(/^backupstats: meterHttpRequests option "origin" is .*; accepted: an origin/),
      }),
    );
  });

  it('refuses stats that are not Stats or have their operation set, and options left out', () => {
    const origin = plain.origin;
    expect(() => meterHttpRequests({} as never, { origin })).toThrow(
      expect.objectContaining({ name: 'TypeError', code: 'BACKUPSTATS_INVALID_ARGUMENT' }),
    );
    const real = createBackupStats({ meterProvider: new MeterProvider() });
    onTestFinished(() => real.shutdown());
    expect(() => meterHttpRequests(real.backup.scope({ operation: 'Mine' }), { origin })).toThrow(
      expect.objectContaining({ code: 'BACKUPSTATS_INVALID_ARGUMENT', message: expect.stringMatching(/operation/) }),
    );
    expect(() => meterHttpRequests(createRecordingStats(), undefined as never)).toThrow(
      expect.objectContaining({ code: 'BACKUPSTATS_INVALID_OPTION' }),
    );
    expect(() => meterHttpRequests(createRecordingStats(), { origin, originn: 1 } as never)).toThrow(
      expect.objectContaining({ code: 'BACKUPSTATS_INVALID_OPTION', message: expect.stringMatching(/originn/) }),
    );
  });
});
