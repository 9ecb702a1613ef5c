import { Agent, createServer, request } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createBackupStats } from 'backupstats';
import { meterHttpRequests } from 'backupstats/http';
import type { BenchConfig } from '../config.js';
import { createOtelSetup } from '../harness/otel.js';
import { summarize } from '../harness/sample.js';
import { type HttpListenerRow, runHttpListeners } from './http-listeners.js';

/** One client and metering case: the median time of one request over interleaved rounds. */
export interface HttpRequestRow {
  readonly client: 'http.request' | 'fetch';
  readonly metering: 'none' | 'this origin' | 'another origin';
  /** Median over rounds of the mean wall time of one request, µs. */
  readonly usPerRequest: number;
  /**
   * Median over rounds of the mean CPU time (user + system) this process spent per request, client and server
   * together, µs: less moved by other processes on the machine than the wall time.
   */
  readonly cpuUsPerRequest: number;
  readonly rounds: number;
  readonly requestsPerRound: number;
}

/** What the HTTP request benchmark measured. */
export interface HttpRequestResult {
  /** The meter's own work per request, from synthetic channel messages. */
  readonly listeners: readonly HttpListenerRow[];
  readonly rows: readonly HttpRequestRow[];
}

const METERINGS = ['none', 'this origin', 'another origin'] as const;

/**
 * The cost of `meterHttpRequests` per request: PUTs of 1 KiB answered with 1 KiB by a keep-alive server on
 * 127.0.0.1, sent by `http.request` (keep-alive agent) and by `fetch`, unmetered, metered on this origin, and with a
 * meter on another origin only (what metering costs requests it does not meter). The three run in interleaved
 * rounds, so that the machine's drift touches them alike; every metered request must reach OpenTelemetry.
 */
export async function runHttpRequest(config: BenchConfig): Promise<HttpRequestResult> {
  const listeners = await runHttpListeners(config);
  const body = Buffer.alloc(1024, 1);
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-length': body.length });
      res.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const otel = createOtelSetup();
  const stats = createBackupStats({ meterProvider: otel.provider });

  const viaHttp = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = request(
        `${origin}/put`,
        { method: 'PUT', agent, headers: { 'content-length': body.length } },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const viaFetch = async (): Promise<void> => {
    const response = await fetch(`${origin}/put`, { method: 'PUT', body });
    await response.arrayBuffer();
  };

  const rounds = config.quick ? 1 : 15;
  const perRound = config.quick ? 10 : 400;
  const warmUp = config.quick ? 5 : 50;
  const times = new Map<string, { wall: number[]; cpu: number[] }>();
  let metered = 0;
  try {
    // Warm-up: both clients, every case, so that no case pays the first compilation.
    for (const metering of METERINGS) await roundOf(metering, viaHttp, warmUp);
    for (const metering of METERINGS) await roundOf(metering, viaFetch, warmUp);
    for (let round = 0; round < rounds; round++) {
      for (const [client, send] of [
        ['http.request', viaHttp],
        ['fetch', viaFetch],
      ] as const) {
        // Each round starts with another case, so that no case always follows the same one (GC debt, caches).
        for (let k = 0; k < METERINGS.length; k++) {
          const metering = METERINGS[(round + k) % METERINGS.length] as (typeof METERINGS)[number];
          const key = `${client}|${metering}`;
          const lists = times.get(key) ?? { wall: [], cpu: [] };
          const { wall, cpu } = await roundOf(metering, send, perRound);
          lists.wall.push(wall);
          lists.cpu.push(cpu);
          times.set(key, lists);
          if (metering === 'this origin') metered += perRound;
        }
      }
    }
    stats.flush();
    const sent = await otel.total('backup.operations');
    // The warm-up's metered requests count too.
    if (sent !== metered + 2 * warmUp)
      throw new Error(`http-request: exported ${sent} attempts, expected ${metered + 2 * warmUp}`);
  } finally {
    agent.destroy();
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await stats.shutdown();
    await otel.shutdown();
  }
  return {
    listeners,
    rows: [...times].map(([key, lists]) => {
      const [client, metering] = key.split('|') as [HttpRequestRow['client'], HttpRequestRow['metering']];
      return {
        client,
        metering,
        usPerRequest: summarize(lists.wall).median,
        cpuUsPerRequest: summarize(lists.cpu).median,
        rounds,
        requestsPerRound: perRound,
      };
    }),
  };

  /** `n` requests one after the other under `metering`; the mean wall and CPU time of one, µs. */
  async function roundOf(
    metering: (typeof METERINGS)[number],
    send: () => Promise<void>,
    n: number,
  ): Promise<{ wall: number; cpu: number }> {
    const unmeter =
      metering === 'none'
        ? undefined
        : meterHttpRequests(stats.backup, { origin: metering === 'this origin' ? origin : 'http://127.0.0.1:9' });
    try {
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      for (let i = 0; i < n; i++) await send();
      const wall = ((performance.now() - start) / n) * 1000;
      const cpu = process.cpuUsage(cpuStart);
      return { wall, cpu: (cpu.user + cpu.system) / n };
    } finally {
      unmeter?.();
    }
  }
}
