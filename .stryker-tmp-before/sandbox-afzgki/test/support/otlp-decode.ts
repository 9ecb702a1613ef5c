// @ts-nocheck
// Decoding of OTLP metrics exports with OpenTelemetry's own generated protobuf code (protobufjs static code
// generated from the official opentelemetry-proto .proto files), taken from @opentelemetry/otlp-transformer
// 0.57.2 installed under the alias otlp-proto-generated. Newer transformers encode by hand and ship no decoder;
// decoding with the same hand-written code that encoded would let an encoder bug cancel itself out.
import { createRequire } from 'node:module';

/** What the generated code offers per message. */
export interface ProtoMessageType {
  decode(bytes: Uint8Array): unknown;
  fromObject(object: unknown): unknown;
  toObject(message: unknown, options: object): unknown;
  encode(message: unknown): { finish(): Uint8Array };
  create(): unknown;
}

const root = createRequire(import.meta.url)('otlp-proto-generated/build/src/generated/root.js') as {
  opentelemetry: {
    proto: {
      collector: {
        metrics: {
          v1: { ExportMetricsServiceRequest: ProtoMessageType; ExportMetricsServiceResponse: ProtoMessageType };
        };
      };
    };
  };
};
/** The request and response of `opentelemetry.proto.collector.metrics.v1.MetricsService/Export`. */
export const { ExportMetricsServiceRequest, ExportMetricsServiceResponse } =
  root.opentelemetry.proto.collector.metrics.v1;

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

/** An export from a message decoded by the generated code (a gRPC request, or a decoded HTTP body). */
export function receivedExport(
  protocol: OtlpProtocol,
  headers: Readonly<Record<string, string>>,
  message: unknown,
): ReceivedExport {
  const request = ExportMetricsServiceRequest.toObject(message, TO_OBJECT);
  return { protocol, headers, request, points: flatten(request) };
}

/** Decodes an HTTP body by its content type; undefined for a content type OTLP/HTTP does not use. Throws on a malformed body. */
export function decodeHttpBody(
  contentType: string,
  body: Buffer,
  headers: Readonly<Record<string, string>>,
): ReceivedExport | undefined {
  if (contentType === 'application/x-protobuf')
    return receivedExport('http/protobuf', headers, ExportMetricsServiceRequest.decode(body));
  // The OTLP JSON mapping is protobuf's: fromObject checks it against the same definitions.
  if (contentType === 'application/json') {
    return receivedExport(
      'http/json',
      headers,
      ExportMetricsServiceRequest.fromObject(JSON.parse(body.toString('utf8'))),
    );
  }
  return undefined;
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
