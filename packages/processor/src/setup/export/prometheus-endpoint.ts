import { createServer, type ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { diag } from '@opentelemetry/api';
import type { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { scrapesCut } from '../../diagnostics/messages.js';
import { serializePrometheus } from './prometheus-text.js';

/** The HTTP endpoint Prometheus scrapes. */
export interface PrometheusEndpoint {
  /** Resolves once it listens; rejects with the server's error (EADDRINUSE, EADDRNOTAVAIL, …). */
  listen(): Promise<void>;
  /**
   * Stops listening and closes every connection: idle keep-alive ones and requests that never finished arriving
   * at once, scrapes being answered once answered or, at the latest, after `graceMillis`. Resolves when all are
   * closed.
   */
  close(graceMillis: number): Promise<void>;
}

const PATH = '/metrics';

/**
 * Serves `exporter`'s scrape on `host:port` at `/metrics`, in place of the exporter's own server: that one's
 * `close()` waits for every open connection, and a client that never finishes its request (a stuck scraper or
 * proxy) then holds the shutdown forever, since Node stops its header-timeout sweep once `close()` is called.
 * Owning the server lets the shutdown close idle and stuck connections, through the exporter's public
 * `collect()`. Neither the server nor its connections keep the process alive: a job ends when its work ends,
 * scraped or not. The text is written by {@link serializePrometheus}, the same text as the exporter's own
 * serializer at a fraction of the time the scrape holds the job's thread.
 */
export function createPrometheusEndpoint(exporter: PrometheusExporter, host: string, port: number): PrometheusEndpoint {
  const connections = new Set<Socket>();
  /** Connections whose request has arrived and whose answer has not all left for the scraper. */
  const answering = new Set<Socket>();
  let closing = false;

  const server = createServer((request, response) => {
    const socket = request.socket;
    answering.add(socket);
    const answered = (): void => {
      answering.delete(socket);
      if (closing) socket.end();
    };
    // 'finish' says that the answer was handed to the socket, which may still hold most of it for a scraper that
    // reads slowly: the answer is over once the socket has passed it on, or when the connection is gone.
    response.once('finish', () => {
      if (socket.writableNeedDrain) socket.once('drain', answered);
      else answered();
    });
    response.once('close', () => {
      if (!response.writableFinished) answered();
    });
    let path: string | undefined;
    try {
      path = new URL(request.url ?? '/', 'http://localhost').pathname;
    } catch {
      path = undefined;
    }
    if (path === PATH) answerScrape(exporter, response);
    else reply(response, path === undefined ? 400 : 404);
  });
  server.unref();
  server.on('connection', (socket: Socket) => {
    socket.unref();
    connections.add(socket);
    socket.once('close', () => {
      connections.delete(socket);
      answering.delete(socket);
    });
  });

  return {
    listen: () =>
      new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen({ host, port }, () => {
          server.removeListener('error', reject);
          resolve();
        });
      }),
    close: (graceMillis) =>
      new Promise<void>((resolve) => {
        closing = true;
        let timer: NodeJS.Timeout | undefined;
        // net.Server's close, not http.Server's: since Node 19 that one also destroys every connection with no
        // request arriving, which includes one whose answer is still on its way to the scraper. A server that never
        // listened reports ERR_SERVER_NOT_RUNNING: it is closed all the same.
        NetServer.prototype.close.call(server, () => {
          clearTimeout(timer);
          resolve();
        });
        for (const socket of connections) if (!answering.has(socket)) socket.destroy();
        if (connections.size === 0) return;
        timer = setTimeout(() => {
          if (answering.size > 0) {
            scrapesCut(answering.size);
          }
          for (const socket of connections) socket.destroy();
        }, graceMillis);
      }),
  };
}

/** What exporter-prometheus' own handler answers, but for the serializer. */
function answerScrape(exporter: PrometheusExporter, response: ServerResponse): void {
  response.statusCode = 200;
  response.setHeader('content-type', 'text/plain');
  exporter
    .collect()
    .then(({ resourceMetrics, errors }) => {
      if (errors.length > 0) diag.error('PrometheusExporter: metrics collection errors', ...errors);
      response.end(serializePrometheus(resourceMetrics));
    })
    // A failed collection (or serialization, which the exporter's own handler would leave unhandled) ends the
    // answer with the exporter's comment line, never the process.
    .catch((error: unknown) => {
      response.end(`# failed to export metrics: ${error}`);
    });
}

function reply(response: ServerResponse, status: number): void {
  response.statusCode = status;
  response.end();
}
