import { channel } from 'node:diagnostics_channel';
import { EventEmitter } from 'node:events';
import { createBackupStats } from 'backupstats';
import { meterHttpRequests } from 'backupstats/http';
import { Bench, type Task } from 'tinybench';
import type { BenchConfig } from '../config.js';
import { createOtelSetup } from '../harness/otel.js';

/** The meter's own work per request, from the channel messages Node would publish, ns (median). */
export interface HttpListenerRow {
  readonly client: 'http.request' | 'fetch';
  readonly metering: 'none' | 'this origin' | 'another origin';
  readonly nsPerRequest: number;
  readonly rmePercent: number;
}

const ORIGIN = 'http://127.0.0.1:9000';
const BODY = Buffer.alloc(1024, 1);

/** What node:http's ClientRequest offers the meter: its host, Host header, socket and events. */
class FakeClientRequest extends EventEmitter {
  readonly host = '127.0.0.1';
  readonly protocol = 'http:';
  readonly method = 'PUT';
  readonly reusedSocket = true;
  readonly socket = { bytesWritten: 0, remotePort: 9000 };
  readonly _header = 'PUT /k HTTP/1.1\r\nHost: 127.0.0.1:9000\r\nContent-Length: 1024\r\n\r\n';
  getHeader(name: string): unknown {
    return name === 'host' ? '127.0.0.1:9000' : name === 'content-length' ? 1024 : undefined;
  }
}

/** What node:http's IncomingMessage offers it. */
class FakeIncomingMessage extends EventEmitter {
  readonly statusCode = 200;
  readonly complete = true;
  push(_chunk: unknown): boolean {
    return true;
  }
}

/**
 * The listeners' work per request, without the network: the messages Node publishes for one `http.request` (start,
 * response, its body's one chunk, end and close) and for one `fetch` (create, a body chunk each way, headers,
 * trailers) go through the real channels, with the meter off, on the request's origin, and on another origin only.
 * The difference to "none" is what metering adds to a request.
 */
export async function runHttpListeners(config: BenchConfig): Promise<HttpListenerRow[]> {
  const otel = createOtelSetup();
  const stats = createBackupStats({ meterProvider: otel.provider });
  const start = channel('http.client.request.start');
  const response = channel('http.client.response.finish');
  const create = channel('undici:request:create');
  const headers = channel('undici:request:headers');
  const trailers = channel('undici:request:trailers');
  const inner = config.quick ? 100 : 2_000;
  const viaHttp = () => {
    for (let i = 0; i < inner; i++) {
      const request = new FakeClientRequest();
      start.publish({ request });
      const res = new FakeIncomingMessage();
      response.publish({ request, response: res });
      res.push(BODY);
      res.emit('end');
      res.emit('close');
      request.emit('close');
    }
  };
  const viaFetch = () => {
    for (let i = 0; i < inner; i++) {
      const request = {
        origin: ORIGIN,
        contentLength: 1024,
        onBodySent(_chunk: unknown): void {},
        onData(_chunk: unknown): boolean {
          return true;
        },
      };
      create.publish({ request });
      request.onBodySent(BODY);
      headers.publish({ request, response: { statusCode: 200, headers: [], statusText: 'OK' } });
      request.onData(BODY);
      trailers.publish({ request, trailers: [] });
    }
  };
  const bench = new Bench({
    time: config.quick ? 1 : 1000,
    iterations: config.quick ? 3 : 30,
    warmupTime: config.quick ? 1 : 200,
  });
  const cases: Array<[HttpListenerRow['client'], HttpListenerRow['metering']]> = [];
  for (const [client, run] of [
    ['http.request', viaHttp],
    ['fetch', viaFetch],
  ] as const) {
    for (const metering of ['none', 'this origin', 'another origin'] as const) {
      let unmeter: (() => void) | undefined;
      cases.push([client, metering]);
      bench.add(`${client} ${metering}`, run, {
        beforeAll() {
          if (metering !== 'none')
            unmeter = meterHttpRequests(stats.backup, {
              origin: metering === 'this origin' ? ORIGIN : 'http://127.0.0.1:9',
            });
        },
        afterAll() {
          unmeter?.();
        },
      });
    }
  }
  await bench.run();
  stats.flush();
  if ((await otel.total('backup.operations')) === 0) throw new Error('http-listeners: nothing was metered');
  await stats.shutdown();
  await otel.shutdown();
  const nsOf = (task: Task | undefined): { ns: number; rme: number } => {
    const result = task?.result;
    if (result?.state !== 'completed') throw new Error(`http-listeners: task ${task?.name} ended ${result?.state}`);
    return { ns: (result.latency.p50 * 1e6) / inner, rme: result.latency.rme };
  };
  return cases.map(([client, metering], i) => {
    const { ns, rme } = nsOf(bench.tasks[i]);
    return { client, metering, nsPerRequest: ns, rmePercent: rme };
  });
}
