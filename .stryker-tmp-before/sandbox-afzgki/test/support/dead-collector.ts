// @ts-nocheck
import { createServer, type Socket } from 'node:net';
import { freePort } from './free-port.js';

/** A collector that is down in one of the two ways a real one is. */
export interface DeadCollector {
  /** Base URL for OTEL_EXPORTER_OTLP_ENDPOINT (any protocol: nothing is ever answered). */
  readonly url: string;
  /** Connections accepted so far (always 0 when refusing). */
  readonly connections: number;
  stop(): Promise<void>;
}

/**
 * A TCP server on 127.0.0.1 that accepts every connection, reads what it gets and never answers: an overloaded
 * or wedged collector, or a proxy that lost its backend. HTTP requests and the gRPC (HTTP/2) handshake hang.
 */
export async function startStalledCollector(): Promise<DeadCollector> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('close', () => sockets.delete(socket));
    socket.resume();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    get connections() {
      return connections;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A collector that is not running: nothing listens on its port, so every connection is refused. */
export async function refusingCollector(): Promise<DeadCollector> {
  const port = await freePort();
  return { url: `http://127.0.0.1:${port}`, connections: 0, stop: async () => {} };
}
