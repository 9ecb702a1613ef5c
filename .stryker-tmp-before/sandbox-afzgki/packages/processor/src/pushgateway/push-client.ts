// @ts-nocheck
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** What the Pushgateway answered. */
export interface PushAnswer {
  readonly status: number;
  readonly statusText: string;
  /** The start of the body: enough to quote it. */
  readonly body: string;
}

/** Sends pushes to one Pushgateway, over connections it owns. */
export interface PushClient {
  /**
   * POSTs `body` (Prometheus text format) to `path` under the base URL; resolves with the answer, or rejects when no
   * answer came within the timeout or the connection failed.
   */
  post(path: string, body: string): Promise<PushAnswer>;
  /** Closes every connection, those of pushes under way included. */
  close(): void;
}

/** The most of an answer kept to quote it: a refusal's reason is in its first line. */
const ANSWER_BYTES = 4096;

/**
 * A client of the Pushgateway at `base` (no credentials in it: they travel in `headers`). Its connections are kept
 * alive between pushes and never hold the process open (Node's agents unref idle sockets); a push gets
 * `timeoutMillis` for the whole exchange, after which its connection is destroyed, so no push outlives the
 * export deadline.
 */
export function createPushClient(
  base: URL,
  headers: Readonly<Record<string, string>>,
  timeoutMillis: number,
): PushClient {
  const https = base.protocol === 'https:';
  const agent = https ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const send = https ? httpsRequest : httpRequest;
  const prefix = base.pathname.replace(/\/+$/, '');

  return {
    post(path, body) {
      return new Promise<PushAnswer>((resolve, reject) => {
        const request = send(
          new URL(`${prefix}${path}`, base),
          {
            method: 'POST',
            agent,
            headers: {
              ...headers,
              'content-type': 'text/plain; version=0.0.4; charset=utf-8',
              'content-length': Buffer.byteLength(body),
            },
          },
          (response) => readAnswer(response).then(resolve, reject),
        );
        const timer = setTimeout(() => {
          request.destroy(new Error(`the Pushgateway did not answer within ${timeoutMillis} ms`));
        }, timeoutMillis);
        // The request's own socket keeps the process alive while it is under way; the timer need not.
        timer.unref();
        request.once('error', reject);
        request.once('close', () => clearTimeout(timer));
        request.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}

async function readAnswer(response: IncomingMessage): Promise<PushAnswer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    if (size < ANSWER_BYTES) chunks.push(chunk);
    size += chunk.length;
  }
  return {
    status: response.statusCode ?? 0,
    statusText: response.statusMessage ?? '',
    body: Buffer.concat(chunks).subarray(0, ANSWER_BYTES).toString('utf8'),
  };
}
