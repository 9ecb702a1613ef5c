// @ts-nocheck
// The real Prometheus Pushgateway (Debian's prometheus-pushgateway, 1.5.1), started on 127.0.0.1 at a free port for
// one test and stopped when it ends.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';
import { freePort } from '../free-port.js';
import { findBinary, requireE2E } from '../prometheus.js';
import { startServerProcess } from '../server-process.js';
import { parseExposition, type Sample } from './exposition.js';

/** The Pushgateway binary (`PUSHGATEWAY_BIN` if set, else `/usr/bin/prometheus-pushgateway`), or undefined. */
export const pushgatewayBinary: string | undefined = findBinary('PUSHGATEWAY_BIN', '/usr/bin/prometheus-pushgateway');

if (pushgatewayBinary === undefined && !requireE2E) {
  // Said once per test file that imports this module, so a skip never goes unexplained.
  console.warn(
    'backupstats e2e: the Pushgateway was not found (set PUSHGATEWAY_BIN or install the "prometheus-pushgateway" ' +
      'package); the tests that need it are skipped. Set BACKUPSTATS_REQUIRE_E2E=1 to make that a failure.',
  );
}

/** Users the Pushgateway asks for (its --web.config.file): `bcrypt` is the hash of `password`. */
export interface BasicAuth {
  readonly user: string;
  readonly password: string;
  readonly bcrypt: string;
}

/** A running Pushgateway started by {@link startPushgateway}. */
export interface PushgatewayServer {
  /** Base URL without credentials, such as `http://127.0.0.1:41234`. */
  readonly url: string;
  /** `127.0.0.1:<port>`, a Prometheus target. */
  readonly address: string;
  /** What it serves on /metrics now: every group's samples, and its own metrics. */
  exposition(): Promise<string>;
  /** The same, parsed. */
  samples(): Promise<Sample[]>;
  /** The grouping labels of every group it holds (from /api/v1/metrics). */
  groups(): Promise<Array<Record<string, string>>>;
  /** A request of the test's own, e.g. a conflicting push or a DELETE of a group. */
  request(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: string): Promise<{ status: number; body: string }>;
  /** Resolves with what `find` returns for the samples, once it returns something; throws after `timeoutMs`. */
  waitFor<T>(find: (samples: Sample[]) => T | undefined, what: string, timeoutMs?: number): Promise<T>;
  /** Kills the server and removes its files. */
  stop(): Promise<void>;
}

/**
 * Starts the real Pushgateway on 127.0.0.1 (free port), persisting nowhere (`--persistence.file=`), and with
 * `basicAuth` behind that user. Resolves once `/-/ready` says so; throws, saying it is missing, without a binary.
 */
export async function startPushgateway(options: { basicAuth?: BasicAuth } = {}): Promise<PushgatewayServer> {
  if (pushgatewayBinary === undefined) {
    throw new Error(
      'the Pushgateway is missing: no executable at PUSHGATEWAY_BIN or /usr/bin/prometheus-pushgateway ' +
        '(apt-get install prometheus-pushgateway), and BACKUPSTATS_REQUIRE_E2E=1 requires the end-to-end tests to run',
    );
  }
  const dir = await mkdtemp(join(tmpdir(), 'backupstats-pushgateway-'));
  const args = ['--persistence.file=', '--log.level=warn'];
  const auth = options.basicAuth;
  const headers: Record<string, string> = {};
  if (auth !== undefined) {
    await writeFile(join(dir, 'web.yml'), `basic_auth_users:\n  ${auth.user}: ${JSON.stringify(auth.bcrypt)}\n`);
    args.push(`--web.config.file=${join(dir, 'web.yml')}`);
    headers.authorization = `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}`;
  }
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  const url = `http://${address}`;
  const server = startServerProcess(
    'the Pushgateway',
    pushgatewayBinary,
    [`--web.listen-address=${address}`, ...args],
    dir,
  );
  const get = async (path: string): Promise<string> => {
    const response = await fetch(`${url}${path}`, { headers });
    if (!response.ok) throw new Error(`Pushgateway ${path} answered ${response.status}`);
    return response.text();
  };
  await server.ready(async () => {
    await get('/-/ready');
  });

  const samples = async (): Promise<Sample[]> => parseExposition(await get('/metrics'));
  return {
    url,
    address,
    exposition: () => get('/metrics'),
    samples,
    async groups() {
      const body = JSON.parse(await get('/api/v1/metrics')) as { data: Array<{ labels: Record<string, string> }> };
      return body.data.map((group) => group.labels);
    },
    async request(method, path, body) {
      const response = await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
      return { status: response.status, body: await response.text() };
    },
    waitFor: (find, what, timeoutMs = 30_000) =>
      vi.waitFor(
        async () => {
          const now = await samples();
          const found = find(now);
          if (found === undefined) throw new Error(`Pushgateway: no ${what} within ${timeoutMs} ms`);
          return found;
        },
        { timeout: timeoutMs, interval: 100 },
      ),
    stop: server.stop,
  };
}
