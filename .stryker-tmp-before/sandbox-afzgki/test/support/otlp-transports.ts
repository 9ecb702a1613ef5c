// @ts-nocheck
// The two ways an OTLP receiver takes exports: HTTP (POST /v1/metrics, protobuf or JSON, gzip or not) and
// gRPC (MetricsService/Export, no TLS), both on 127.0.0.1. They decode with otlp-decode.ts and hand every
// export to the receiver, which decides through `down()` whether they are turned away.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { gunzipSync } from 'node:zlib';
import * as grpc from '@grpc/grpc-js';
import {
  decodeHttpBody,
  ExportMetricsServiceRequest,
  ExportMetricsServiceResponse,
  type ReceivedExport,
  receivedExport,
} from './otlp-decode.js';

/** How the receiver behaves while down. */
export type DownMode =
  /** Answers 503 Service Unavailable (gRPC: UNAVAILABLE), which OTLP exporters retry. */
  | 'unavailable'
  /** Accepts the connection and destroys it without an answer. */
  | 'reset'
  /** Stops listening: connections are refused. */
  | 'closed';

/** What a transport asks of the receiver. */
export interface TransportHooks {
  /** The mode the receiver is down in, or undefined while up. */
  down(): DownMode | undefined;
  accept(entry: ReceivedExport): void;
  /** Counts a request turned away while down. */
  reject(): void;
}

/** A server on 127.0.0.1 at a fixed port, which can stop listening and listen again. */
export interface Transport {
  listen(): Promise<void>;
  /** Stops listening and drops every connection, as a crashed collector would. */
  close(): Promise<void>;
}

const headersOf = (entries: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(Object.entries(entries).map(([key, value]) => [key, String(value)]));

/** OTLP/HTTP on `port`. */
export function httpTransport(port: number, hooks: TransportHooks): Transport {
  const sockets = new Set<Socket>();
  let server: Server | undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const mode = hooks.down();
    if (mode === 'reset' || mode === 'unavailable') {
      hooks.reject();
      if (mode === 'reset') req.socket.destroy();
      else res.writeHead(503, { 'content-type': 'text/plain' }).end('receiver down for the test');
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
    const contentType =
      String(req.headers['content-type'] ?? '')
        .split(';')[0]
        ?.trim() ?? '';
    try {
      const entry = decodeHttpBody(contentType, body, headersOf(req.headers));
      if (entry === undefined) {
        res.writeHead(415, { 'content-type': 'text/plain' }).end(`unsupported content-type ${contentType}`);
        return;
      }
      hooks.accept(entry);
      if (entry.protocol === 'http/json') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else {
        const reply = ExportMetricsServiceResponse.encode(ExportMetricsServiceResponse.create()).finish();
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end(Buffer.from(reply));
      }
    } catch (error) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
    }
  };

  return {
    listen: () =>
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
      }),
    close: () =>
      new Promise<void>((resolve) => {
        const s = server;
        server = undefined;
        if (s === undefined) return resolve();
        s.close(() => resolve());
        // Keep-alive connections would hold close() open and keep reaching the "closed" receiver.
        for (const socket of sockets) socket.destroy();
      }),
  };
}

const SERVICE: grpc.ServiceDefinition = {
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

/** OTLP/gRPC on `port`. It has no cheap "accept then drop": the receiver closes it for `reset` too. */
export function grpcTransport(port: number, hooks: TransportHooks): Transport {
  const exportCall: grpc.handleUnaryCall<unknown, unknown> = (call, callback) => {
    if (hooks.down() !== undefined) {
      hooks.reject();
      callback({ code: grpc.status.UNAVAILABLE, details: 'receiver down for the test' });
      return;
    }
    hooks.accept(receivedExport('grpc', headersOf(call.metadata.getMap()), call.request));
    callback(null, ExportMetricsServiceResponse.create());
  };
  let server: grpc.Server | undefined;
  return {
    async listen() {
      const s = new grpc.Server();
      s.addService(SERVICE, { Export: exportCall });
      await new Promise<void>((resolve, reject) => {
        s.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (error) =>
          error ? reject(error) : resolve(),
        );
      });
      server = s;
    },
    async close() {
      const s = server;
      server = undefined;
      // forceShutdown also cancels open calls and drops connections, as a crashed collector would.
      s?.forceShutdown();
    },
  };
}
