// @ts-nocheck
// An OTLP metrics receiver for the tests: it keeps every export it accepts, decoded with the official protocol
// definitions (otlp-decode.ts), over HTTP or gRPC (otlp-transports.ts), and can be taken down in the ways a
// real collector goes down.
import { vi } from 'vitest';
import { freePort } from './free-port.js';
import type { AttributeValue, ReceivedExport, ReceivedPoint } from './otlp-decode.js';
import { type DownMode, grpcTransport, httpTransport } from './otlp-transports.js';
import { seriesKey } from './series-key.js';

export type { AttributeValue, OtlpProtocol, ReceivedExport, ReceivedPoint } from './otlp-decode.js';
export type { DownMode } from './otlp-transports.js';

/** An OTLP metrics receiver on 127.0.0.1. */
export interface OtlpReceiver {
  readonly transport: 'http' | 'grpc';
  /** Base URL to put in OTEL_EXPORTER_OTLP_ENDPOINT (the exporter adds `/v1/metrics` over HTTP). */
  readonly url: string;
  /** Every accepted export, in arrival order. */
  readonly exports: readonly ReceivedExport[];
  /** Requests turned away while down. */
  readonly rejected: number;
  /** Makes the receiver unreachable in the given way until {@link up}. */
  down(mode?: DownMode): Promise<void>;
  up(): Promise<void>;
  /**
   * Latest value of every cumulative Sum series, keyed by {@link seriesKey}: the point with the greatest
   * timestamp wins, so retried or reordered exports cannot make a total go back. With `resource`, only the
   * points of the processes whose resource has those attributes (one instance of a fleet).
   */
  totals(resource?: Readonly<Record<string, string>>): Map<string, number>;
  /** Resource attributes of the latest export. */
  resource(): Record<string, AttributeValue>;
  /** Resolves once `predicate` holds for the receiver, or throws after `timeoutMs` saying `what` did not arrive. */
  waitFor(predicate: (receiver: OtlpReceiver) => boolean, timeoutMs?: number, what?: string): Promise<void>;
  stop(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 at a free port, over HTTP (protobuf and JSON) or gRPC. */
export async function startOtlpReceiver(transport: 'http' | 'grpc' = 'http'): Promise<OtlpReceiver> {
  const exports: ReceivedExport[] = [];
  let downMode: DownMode | undefined;
  let rejected = 0;
  const port = await freePort();
  const hooks = {
    down: () => downMode,
    accept: (entry: ReceivedExport) => exports.push(entry),
    reject: () => rejected++,
  };
  const server = transport === 'http' ? httpTransport(port, hooks) : grpcTransport(port, hooks);
  /** Whether the mode takes the server down altogether. */
  const closes = (mode: DownMode | undefined): boolean =>
    mode === 'closed' || (transport === 'grpc' && mode === 'reset');
  await server.listen();

  const receiver: OtlpReceiver = {
    transport,
    url: `http://127.0.0.1:${port}`,
    exports,
    get rejected() {
      return rejected;
    },
    async down(mode = 'unavailable') {
      downMode = mode;
      if (closes(mode)) await server.close();
    },
    async up() {
      const wasClosed = closes(downMode);
      downMode = undefined;
      // The port may be in TIME_WAIT or briefly held: try again for a while.
      if (wasClosed) await vi.waitFor(() => server.listen(), { timeout: 5000, interval: 100 });
    },
    totals(resource = {}) {
      const latest = new Map<string, ReceivedPoint>();
      const fromResource = (point: ReceivedPoint) =>
        Object.entries(resource).every(([key, value]) => point.resource[key] === value);
      for (const entry of exports) {
        for (const point of entry.points) {
          if (point.kind !== 'sum' || point.temporality !== 2 || !fromResource(point)) continue;
          const key = seriesKey(point.metric, point.attributes);
          const seen = latest.get(key);
          if (seen === undefined || point.time >= seen.time) latest.set(key, point);
        }
      }
      return new Map([...latest].map(([key, point]) => [key, point.value]));
    },
    resource() {
      return { ...(exports.at(-1)?.points[0]?.resource ?? {}) };
    },
    async waitFor(predicate, timeoutMs = 30_000, what = 'the expected exports') {
      await vi.waitFor(
        () => {
          if (!predicate(receiver))
            throw new Error(
              `OTLP receiver: ${what} did not arrive within ${timeoutMs} ms (${exports.length} exports received)`,
            );
        },
        { timeout: timeoutMs, interval: 50 },
      );
    },
    async stop() {
      downMode = undefined;
      await server.close();
    },
  };
  return receiver;
}
