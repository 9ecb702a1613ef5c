// A Prometheus client that sent half a request, or keeps an idle keep-alive connection, never holds the end of
// a job: neither SIGTERM nor the job's normal end nor an explicit shutdown waits for it.
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Stats } from 'backupstats';
import { startBackupStats } from 'backupstats/setup';
import { describe, expect, it, onTestFinished } from 'vitest';
import { type FixtureProcess, startFixture } from '../support/child.js';
import { captureDiag } from '../support/diag-capture.js';
import { freePort } from '../support/free-port.js';

const fixture = fileURLToPath(new URL('../fixtures/exit-job.mjs', import.meta.url));

/**
 * How long a test waits for an end. A stuck client held it forever before (Node stops its header-timeout sweep
 * once close() is called); the fixed end takes milliseconds. 20 s is a hang detector with room for a loaded
 * machine, not a timing measurement.
 */
const HANG_MS = 20_000;

function prometheusEnv(port: number): Record<string, string> {
  return {
    OTEL_METRICS_EXPORTER: 'prometheus',
    OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
    OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
  };
}

function job(env: Record<string, string>): FixtureProcess {
  const child = startFixture(fixture, env);
  onTestFinished(() => child.kill());
  return child;
}

/** A raw client that sends the start of a scrape and never the end of its headers; resolves once sent. */
async function halfRequest(port: number): Promise<{ socket: Socket; closed: Promise<void> }> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  onTestFinished(() => {
    socket.destroy();
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  await new Promise<void>((resolve, reject) =>
    socket.write('GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n', (e) => (e ? reject(e) : resolve())),
  );
  return { socket, closed };
}

/**
 * Records an answer far larger than the sockets' buffers (700 series of 28 lines, each line about 750 bytes: some
 * 15 MB), so that a scraper that stops reading leaves it undelivered: a loopback connection holds a few MB at most
 * (the send buffer grows to 4 MiB by default, and the receive buffer of a reader that stopped does not grow).
 */
function recordLargeScrape(stats: { backup: Stats }): void {
  const long = 'x'.repeat(200);
  for (let i = 0; i < 700; i++) {
    stats.backup.scope({ component: long, implementation: long, operation: `${long}${i}` }).timedIncrementBytes(1, 1);
  }
}

/** A raw scraper that sends a whole scrape, reads the start of the answer and then stops reading (paused). */
async function slowScraper(port: number): Promise<{ socket: Socket; whole: Promise<string>; closed: Promise<void> }> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  onTestFinished(() => {
    socket.destroy();
  });
  const chunks: Buffer[] = [];
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const whole = closed.then(() => Buffer.concat(chunks).toString('latin1'));
  const started = new Promise<void>((resolve) =>
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (chunks.length === 1) {
        socket.pause();
        resolve();
      }
    }),
  );
  socket.write('GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
  await started;
  return { socket, whole, closed };
}

/** One complete scrape over a keep-alive agent, which then keeps the idle connection open. */
async function scrapeKeepingAlive(port: number): Promise<string> {
  const agent = new Agent({ keepAlive: true });
  onTestFinished(() => agent.destroy());
  return new Promise<string>((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: '/metrics', agent }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve(body));
    })
      .on('error', reject)
      .end();
  });
}

/** Rejects if `promise` has not settled within `ms`: it would otherwise hang the test until its timeout. */
function notHanging<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} still pending after ${ms} ms`)), ms);
  });
  return Promise.race([promise, hang]).finally(() => clearTimeout(timer));
}

describe('a stuck Prometheus client never holds the end of a job', () => {
  it('SIGTERM: the job dies by SIGTERM and the half-sent request is closed', async () => {
    const port = await freePort();
    const child = job({ ...prometheusEnv(port), FIXTURE_END: 'signal' });
    await child.waitForEvent('ready');
    const stuck = await halfRequest(port);
    child.child.kill('SIGTERM');
    expect(await child.exited(HANG_MS), child.stderr()).toEqual({ code: null, signal: 'SIGTERM' });
    await notHanging(stuck.closed, HANG_MS, 'the stuck client connection');
  });

  it('the job returns: shutdownOnExit runs and the job exits 0, with a half-sent request and an idle keep-alive scraper', async () => {
    const port = await freePort();
    const child = job({ ...prometheusEnv(port), FIXTURE_END: 'return', FIXTURE_JOB_MS: 'SIGUSR2' });
    await child.waitForEvent('ready');
    // A real scrape works and leaves its keep-alive connection idle, next to a client that never finishes.
    expect(await scrapeKeepingAlive(port)).toMatch(/^backup_bytes_total\{.*implementation="Part1".*\} 4096$/m);
    await halfRequest(port);
    child.child.kill('SIGUSR2');
    expect(await child.exited(HANG_MS), child.stderr()).toEqual({ code: 0, signal: null });
  });

  it('in process: shutdown() resolves and closes the half-sent request, silently (it was no scrape being answered)', async () => {
    const diagnostics = captureDiag();
    onTestFinished(() => diagnostics.restore());
    const port = await freePort();
    const stats = await startBackupStats({ env: prometheusEnv(port) });
    const stuck = await halfRequest(port);
    await notHanging(stats.shutdown(), HANG_MS, 'shutdown()');
    await notHanging(stuck.closed, HANG_MS, 'the stuck client connection');
    expect(diagnostics.messages).toEqual([]);
    // The port is free again: the endpoint is really closed.
    const again = await startBackupStats({ env: prometheusEnv(port) });
    await again.shutdown();
  });

  it('in process: a scrape being answered when shutdown starts gets its whole answer, within the deadline', async () => {
    const diagnostics = captureDiag();
    onTestFinished(() => diagnostics.restore());
    const port = await freePort();
    const stats = await startBackupStats({ env: { ...prometheusEnv(port), OTEL_METRIC_EXPORT_TIMEOUT: '20000' } });
    recordLargeScrape(stats);
    const scraper = await slowScraper(port);
    const shutdown = stats.shutdown();
    scraper.socket.resume();
    const answer = await notHanging(scraper.whole, HANG_MS, 'the whole answer');
    await notHanging(shutdown, HANG_MS, 'shutdown()');
    const [head = '', body = ''] = answer.split('\r\n\r\n', 2);
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(Buffer.byteLength(body)).toBe(Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1]));
    expect(body).toContain('backup_operations_total{');
    expect(diagnostics.messages).toEqual([]);
  });

  it('in process: a scrape still being answered at the deadline is cut, and said', async () => {
    const diagnostics = captureDiag();
    onTestFinished(() => diagnostics.restore());
    const port = await freePort();
    const stats = await startBackupStats({ env: { ...prometheusEnv(port), OTEL_METRIC_EXPORT_TIMEOUT: '1000' } });
    recordLargeScrape(stats);
    const scraper = await slowScraper(port);
    await notHanging(stats.shutdown(), HANG_MS, 'shutdown()');
    // Reading again, the scraper finds the connection closed, its answer cut short.
    scraper.socket.resume();
    await notHanging(scraper.closed, HANG_MS, 'the scrape that stopped reading');
    expect(diagnostics.messages).toEqual([
      "backupstats: the Prometheus endpoint cut 1 scrape(s) still being answered when the shutdown's deadline passed",
    ]);
  });
});
