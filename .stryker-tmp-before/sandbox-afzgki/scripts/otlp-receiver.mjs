// @ts-nocheck
// What scripts/check-install.mjs runs its README examples against: an OTLP/HTTP receiver on 127.0.0.1 that keeps
// every protobuf export, decoded with OpenTelemetry's generated protobuf code.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';

const protoRoot = createRequire(import.meta.url)('otlp-proto-generated/build/src/generated/root.js');
const { ExportMetricsServiceRequest } = protoRoot.opentelemetry.proto.collector.metrics.v1;

/**
 * Starts the receiver at a port the OS picks. `endpoint` goes in OTEL_EXPORTER_OTLP_ENDPOINT; `latest(name,
 * operation)` is the latest value of the counter `name` whose `operation` attribute is `operation`; `clear()`
 * forgets what was received, `count()` says how many exports were.
 */
export async function startOtlpReceiver() {
  let received = [];
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    if (
      req.method === 'POST' &&
      req.url === '/v1/metrics' &&
      req.headers['content-type'] === 'application/x-protobuf'
    ) {
      received.push(
        ExportMetricsServiceRequest.toObject(ExportMetricsServiceRequest.decode(Buffer.concat(chunks)), {
          longs: Number,
        }),
      );
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${server.address().port}`,
    clear() {
      received = [];
    },
    count: () => received.length,
    latest(name, operation) {
      let value;
      for (const request of received) {
        for (const metric of (request.resourceMetrics ?? [])
          .flatMap((r) => r.scopeMetrics ?? [])
          .flatMap((s) => s.metrics ?? [])) {
          if (metric.name !== name) continue;
          for (const point of metric.sum?.dataPoints ?? []) {
            const attribute = (point.attributes ?? []).find((a) => a.key === 'operation');
            if (attribute?.value?.stringValue === operation) value = point.asInt ?? point.asDouble;
          }
        }
      }
      return value;
    },
    close: () => server.close(),
  };
}
