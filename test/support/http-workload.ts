// What the tests of meterHttpRequests send and expect, over plain HTTP (test/http) and over TLS (test/e2e): one
// request through node:http or node:https, and a workload of uploads, a download and error statuses whose metered
// totals must match what the server counted.
import { type Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { type Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { HttpOperation } from 'backupstats/http';
import type { RecordingStats } from 'backupstats/testing';
import { expect } from 'vitest';
import type { StorageServer } from './http-storage.js';

/** The totals of one operation. */
export const totals = (stats: RecordingStats, operation: string) => stats.totals({ operation });

/**
 * One request through node:http, or node:https when `ca` (the server's certificate) is given; resolves with the
 * status once the body was read.
 */
export function nodeRequest(
  url: string,
  options: { method?: string; body?: Buffer | undefined; agent?: HttpAgent | HttpsAgent; ca?: Buffer } = {},
): Promise<{ status: number; reused: boolean }> {
  const send = options.ca === undefined ? httpRequest : httpsRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: options.method ?? 'GET',
        agent: options.agent,
        ...(options.ca === undefined ? {} : { ca: options.ca }),
        headers: options.body === undefined ? {} : { 'content-length': options.body.length },
      },
      (res: IncomingMessage) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The same workload against a server: two uploads, a download, 404, 500, 503 and 429; resolves with the statuses. */
export async function workload(
  send: (path: string, method: string, body?: Buffer) => Promise<number>,
): Promise<number[]> {
  return [
    await send('/echo', 'PUT', Buffer.alloc(1000, 1)),
    await send('/echo', 'POST', Buffer.alloc(70_000, 2)),
    await send('/bytes/100000', 'GET'),
    await send('/status/404', 'GET'),
    await send('/status/500', 'GET'),
    await send('/status/503', 'GET'),
    await send('/status/429', 'GET'),
  ];
}

/** The statuses of {@link workload}. */
export const STATUSES = [200, 200, 200, 404, 500, 503, 429];

/** What the workload, begun at `started` (`performance.now()`), must have recorded against `server`. */
export async function expectWorkloadRecorded(
  stats: RecordingStats,
  server: StorageServer,
  started: number,
): Promise<void> {
  await expect.poll(() => totals(stats, HttpOperation.RequestSend).count).toBe(7);
  expect(server.counts.requests).toBe(7);
  expect(totals(stats, HttpOperation.RequestSend).bytes).toBe(
    server.counts.requestBodyBytes + server.counts.responseBodyBytes,
  );
  // 404 and 500 failed; 503 and 429 throttled.
  expect(totals(stats, HttpOperation.RequestFailed).count).toBe(2);
  expect(totals(stats, HttpOperation.RequestThrottled).count).toBe(2);
  expect(stats.calls.every((call) => call.labels.component === 'BackupStorage')).toBe(true);
  expect(stats.calls.every((call) => call.labels.implementation === 'HTTP')).toBe(true);
  // Each attempt is timed from its start to its end: within the workload's own time.
  const elapsed = performance.now() - started;
  expect(stats.calls.every((call) => call.durationMillis > 0 && call.durationMillis <= elapsed)).toBe(true);
  expect(stats.calls.every((call) => call.weight === 1)).toBe(true);
}
