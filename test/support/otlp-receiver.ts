import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { gunzipSync } from 'node:zlib';
import * as grpc from '@grpc/grpc-js';
import { freePort } from './free-port.js';

/** What the protobufjs code generated from the official opentelemetry-proto files offers per message. */
interface ProtoMessageType {
  decode(bytes: Uint8Array): unknown;
  fromObject(object: unknown): unknown;
  toObject(message: unknown, options: object): unknown;
  encode(message: unknown): { finish(): Uint8Array };
  create(): unknown;
}

// OpenTelemetry's own generated protobuf code (protobufjs static code generated from the official
// opentelemetry-proto .proto files), taken from @opentelemetry/otlp-transformer 0.57.2 installed under the
// alias otlp-proto-generated. Newer transformers encode by hand and ship no decoder; decoding with the same
// hand-written code that encoded would let an encoder bug cancel itself out.
const root = createRequire(import.meta.url)('otlp-proto-generated/build/src/generated/root.js') as {
  opentelemetry: {
    proto: {
      collector: {
        metrics: { v1: { ExportMetricsServiceRequest: ProtoMessageType; ExportMetricsServiceResponse: ProtoMessageType } };
      };
    };
  };
};
const { ExportMetricsServiceRequest, ExportMetricsServiceResponse } = root.opentelemetry.proto.collector.metrics.v1;

/** Plain-object form of a decoded message: 64-bit integers as decimal strings, enums as numbers. */
const TO_OBJECT = { longs: String, enums: Number, bytes: String, defaults: false, arrays: true, oneofs: true };

/** The wire format an export arrived in. */
export type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc';

/** An attribute value as decoded (OTLP AnyValue made plain). */
export type AttributeValue = string | number | boolean | null | AttributeValue[] | { [key: string]: AttributeValue };

/** One number data point of a Sum or Gauge, flattened with its metric and resource. */
export interface ReceivedPoint {
  readonly metric: string;
  readonly unit: string;
  readonly kind: 'sum' | 'gauge';
  /** 1 delta, 2 cumulative (OTLP AggregationTemporality); 0 for gauges. */
  readonly temporality: number;
  readonly monotonic: boolean;
  readonly attributes: Readonly<Record<string, AttributeValue>>;
  readonly value: number;
  /** Nanoseconds since the epoch, as a bigint, to order points of the same series. */
  readonly time: bigint;
  readonly resource: Readonly<Record<string, AttributeValue>>;
  readonly scope: string;
}

/** One accepted export request. */
export interface ReceivedExport {
  readonly protocol: OtlpProtocol;
  /** Request headers (HTTP) or metadata (gRPC), lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The ExportMetricsServiceRequest as a plain object (see TO_OBJECT). */
  readonly request: unknown;
  readonly points: readonly ReceivedPoint[];
}

/** How the receiver behaves while down. */
export type DownMode =
  /** Answers 503 Service Unavailable (gRPC: UNAVAILABLE), which OTLP exporters retry. */
  | 'unavailable'
  /** Accepts the connection and destroys it without an answer. */
  | 'reset'
  /** Stops listening: connections are refused. */
  | 'closed';

/** An OTLP metrics receiver on 127.0.0.1 that decodes what it gets with the official definitions. */
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
   * timestamp wins, so retried or reordered exports cannot make a total go back.
   */
  totals(): Map<string, number>;
  /** Resource attributes of the latest export. */
  resource(): Record<string, AttributeValue>;
  /** Resolves once `predicate` holds for the receiver (checked on every export and rejection), or throws after `timeoutMs`. */
  waitFor(predicate: (receiver: OtlpReceiver) => boolean, timeoutMs?: number, what?: string): Promise<void>;
  stop(): Promise<void>;
}

/** Key of a series: metric name and its attributes sorted by key, e.g. `backup.bytes{"component":"X",…}`. */
export function seriesKey(metric: string, attributes: Readonly<Record<string, AttributeValue>>): string {
  const sorted = Object.keys(attributes)
    .sort()
    .map((k) => [k, attributes[k]]);
  return `${metric}${JSON.stringify(Object.fromEntries(sorted))}`;
}

type Plain = Record<string, unknown>;
const asArray = (value: unknown): Plain[] => (Array.isArray(value) ? (value as Plain[]) : []);

function anyValue(value: unknown): AttributeValue {
  const v = (value ?? {}) as Plain;
  if ('stringValue' in v) return String(v.stringValue);
  if ('boolValue' in v) return Boolean(v.boolValue);
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return Number(v.doubleValue);
  if ('arrayValue' in v) return asArray((v.arrayValue as Plain).values).map(anyValue);
  if ('kvlistValue' in v) return keyValues((v.kvlistValue as Plain).values);
  if ('bytesValue' in v) return String(v.bytesValue);
  return null;
}

function keyValues(list: unknown): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const kv of asArray(list)) out[String(kv.key)] = anyValue(kv.value);
  return out;
}

function flatten(request: unknown): ReceivedPoint[] {
  const out: ReceivedPoint[] = [];
  for (const rm of asArray((request as Plain).resourceMetrics)) {
    const resource = keyValues(((rm.resource ?? {}) as Plain).attributes);
    for (const sm of asArray(rm.scopeMetrics)) {
      const scope = String(((sm.scope ?? {}) as Plain).name ?? '');
      for (const m of asArray(sm.metrics)) {
        const data = (m.sum ?? m.gauge) as Plain | undefined;
        if (data === undefined) continue;
        const kind = m.sum !== undefined ? 'sum' : 'gauge';
        for (const dp of asArray(data.dataPoints)) {
          const value = dp.asDouble !== undefined ? Number(dp.asDouble) : Number(dp.asInt ?? 0);
          out.push({
            metric: String(m.name),
            unit: String(m.unit ?? ''),
            kind,
            temporality: Number(data.aggregationTemporality ?? 0),
            monotonic: Boolean(data.isMonotonic),
            attributes: keyValues(dp.attributes),
            value,
            time: BigInt(String(dp.timeUnixNano ?? '0')),
            resource,
            scope,
          });
        }
      }
    }
  }
  return out;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts an OTLP metrics receiver on 127.0.0.1 at a free port. `http` accepts POST /v1/metrics as
 * `application/x-protobuf` and `application/json` (gzip or not); `grpc` serves
 * `opentelemetry.proto.collector.metrics.v1.MetricsService/Export` without TLS.
 */
export async function startOtlpReceiver(transport: 'http' | 'grpc' = 'http'): Promise<OtlpReceiver> {
  const exports: ReceivedExport[] = [];
  const waiters = new Set<() => void>();
  let downMode: DownMode | undefined;
  let rejected = 0;
  const port = await freePort();

  const wakeWaiters = () => {
    for (const wake of waiters) wake();
  };
  const accept = (entry: ReceivedExport) => {
    exports.push(entry);
    wakeWaiters();
  };
  const reject = () => {
    rejected++;
    wakeWaiters();
  };

  let listen: () => Promise<void>;
  let close: () => Promise<void>;

  if (transport === 'http') {
    const sockets = new Set<Socket>();
    const handle = async (req: IncomingMessage, res: ServerResponse) => {
      if (downMode === 'reset') {
        reject();
        req.socket.destroy();
        return;
      }
      if (downMode === 'unavailable') {
        reject();
        res.writeHead(503, { 'content-type': 'text/plain' }).end('receiver down for the test');
        return;
      }
      if (req.method !== 'POST' || req.url !== '/v1/metrics') {
        res.writeHead(404).end();
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      const contentType = String(req.headers['content-type'] ?? '').split(';')[0]?.trim();
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      try {
        if (contentType === 'application/x-protobuf') {
          const request = ExportMetricsServiceRequest.toObject(ExportMetricsServiceRequest.decode(body), TO_OBJECT);
          accept({ protocol: 'http/protobuf', headers, request, points: flatten(request) });
          const reply = ExportMetricsServiceResponse.encode(ExportMetricsServiceResponse.create()).finish();
          res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end(Buffer.from(reply));
        } else if (contentType === 'application/json') {
          // The OTLP JSON mapping is protobuf's: fromObject checks it against the same definitions.
          const message = ExportMetricsServiceRequest.fromObject(JSON.parse(body.toString('utf8')));
          const request = ExportMetricsServiceRequest.toObject(message, TO_OBJECT);
          accept({ protocol: 'http/json', headers, request, points: flatten(request) });
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        } else {
          res.writeHead(415, { 'content-type': 'text/plain' }).end(`unsupported content-type ${contentType}`);
        }
      } catch (error) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
      }
    };
    let server: Server | undefined;
    listen = () =>
      new Promise<void>((resolve, reject) => {
        const s = createServer((req, res) => {
          handle(req, res).catch((error: unknown) => res.destroy(error as Error));
        });
        s.on('connection', (socket) => {
          sockets.add(socket);
          socket.once('close', () => sockets.delete(socket));
        });
        s.once('error', reject);
        s.listen(port, '127.0.0.1', () => {
          server = s;
          resolve();
        });
      });
    close = () =>
      new Promise<void>((resolve) => {
        const s = server;
        server = undefined;
        if (s === undefined) return resolve();
        s.close(() => resolve());
        // Keep-alive connections would hold close() open and keep reaching the "closed" receiver.
        for (const socket of sockets) socket.destroy();
      });
  } else {
    const service: grpc.ServiceDefinition = {
      Export: {
        path: '/opentelemetry.proto.collector.metrics.v1.MetricsService/Export',
        requestStream: false,
        responseStream: false,
        requestSerialize: (value: unknown) => Buffer.from(ExportMetricsServiceRequest.encode(value).finish()),
        requestDeserialize: (bytes: Buffer) => ExportMetricsServiceRequest.decode(bytes),
        responseSerialize: (value: unknown) => Buffer.from(ExportMetricsServiceResponse.encode(value).finish()),
        responseDeserialize: (bytes: Buffer) => ExportMetricsServiceResponse.decode(bytes),
      },
    };
    const exportCall: grpc.handleUnaryCall<unknown, unknown> = (call, callback) => {
      if (downMode !== undefined) {
        reject();
        callback({ code: grpc.status.UNAVAILABLE, details: 'receiver down for the test' });
        return;
      }
      const request = ExportMetricsServiceRequest.toObject(call.request, TO_OBJECT);
      const headers = Object.fromEntries(Object.entries(call.metadata.getMap()).map(([k, v]) => [k, String(v)]));
      accept({ protocol: 'grpc', headers, request, points: flatten(request) });
      callback(null, ExportMetricsServiceResponse.create());
    };
    let server: grpc.Server | undefined;
    listen = async () => {
      const s = new grpc.Server();
      s.addService(service, { Export: exportCall });
      await new Promise<void>((resolve, reject) => {
        s.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (error) => (error ? reject(error) : resolve()));
      });
      server = s;
    };
    close = async () => {
      const s = server;
      server = undefined;
      // forceShutdown also cancels open calls and drops connections, as a crashed collector would.
      s?.forceShutdown();
    };
  }

  await listen();

  const receiver: OtlpReceiver = {
    transport,
    url: `http://127.0.0.1:${port}`,
    exports,
    get rejected() {
      return rejected;
    },
    async down(mode = 'unavailable') {
      downMode = mode;
      // gRPC has no cheap "accept then drop": it is refused instead.
      if (mode === 'closed' || (transport === 'grpc' && mode === 'reset')) await close();
    },
    async up() {
      const wasClosed = downMode === 'closed' || (transport === 'grpc' && downMode === 'reset');
      downMode = undefined;
      if (wasClosed) {
        // The port may be in TIME_WAIT or briefly held: retry for a while.
        for (let attempt = 0; ; attempt++) {
          try {
            await listen();
            return;
          } catch (error) {
            if (attempt >= 50) throw error;
            await sleep(100);
          }
        }
      }
    },
    totals() {
      const latest = new Map<string, ReceivedPoint>();
      for (const entry of exports) {
        for (const point of entry.points) {
          if (point.kind !== 'sum' || point.temporality !== 2) continue;
          const key = seriesKey(point.metric, point.attributes);
          const seen = latest.get(key);
          if (seen === undefined || point.time >= seen.time) latest.set(key, point);
        }
      }
      return new Map([...latest].map(([key, point]) => [key, point.value]));
    },
    resource() {
      const last = exports[exports.length - 1];
      return { ...(last?.points[0]?.resource ?? {}) };
    },
    waitFor(predicate, timeoutMs = 30_000, what = 'the expected exports') {
      if (predicate(receiver)) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!predicate(receiver)) return;
          cleanup();
          resolve();
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`OTLP receiver: ${what} did not arrive within ${timeoutMs} ms (${exports.length} exports received)`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
      });
    },
    async stop() {
      downMode = undefined;
      await close();
    },
  };
  return receiver;
}
