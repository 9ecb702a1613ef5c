// @ts-nocheck
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTcpServer } from 'node:net';

/** Where the pushes of the benchmark go. */
export interface PushTarget {
  readonly url: string;
  /** What it is, for the report: the real Pushgateway, or the sink that stands in for it. */
  readonly kind: string;
  stop(): Promise<void>;
}

/** A local HTTP server that takes every push and answers 200, counting what it received. */
export interface PushSink extends PushTarget {
  /** The body of the last push: its size in bytes and its sample lines. */
  readonly last: { readonly bytes: number; readonly samples: number };
}

const BINARY = process.env.PUSHGATEWAY_BIN || '/usr/bin/prometheus-pushgateway';

/** Starts a sink on 127.0.0.1 at a port the OS picks. */
export async function startSink(): Promise<PushSink> {
  let last = { bytes: 0, samples: 0 };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const samples = body
        .toString('utf8')
        .split('\n')
        .filter((line) => line !== '' && !line.startsWith('#')).length;
      last = { bytes: body.length, samples };
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    kind: 'a local HTTP sink',
    get last() {
      return last;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The real Pushgateway on 127.0.0.1 (a free port, no persistence) when its binary is there (`PUSHGATEWAY_BIN`, else
 * Debian's `/usr/bin/prometheus-pushgateway`); otherwise a sink, and the report says so.
 */
export async function startPushTarget(): Promise<PushTarget> {
  try {
    accessSync(BINARY, constants.X_OK);
  } catch {
    const sink = await startSink();
    return { ...sink, kind: `a local HTTP sink (no Pushgateway binary at ${BINARY})` };
  }
  const port = await freePort();
  const child: ChildProcess = spawn(
    BINARY,
    [`--web.listen-address=127.0.0.1:${port}`, '--persistence.file=', '--log.level=warn'],
    { stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let attempt = 0; ; attempt++) {
    const ready = await fetch(`${url}/-/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (attempt === 100 || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`bench: the Pushgateway at ${BINARY} did not get ready on ${url}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    kind: `the Pushgateway ${versionOf(BINARY)} on 127.0.0.1`,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function freePort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** `1.5.1` from `pushgateway, version 1.5.1 (branch: …)`, which it prints on stderr. */
function versionOf(binary: string): string {
  const run = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return /version (\S+)/.exec(`${run.stdout}${run.stderr}`)?.[1] ?? '(version unknown)';
}
