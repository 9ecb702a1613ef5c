import { createServer } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

/** The scraper thread (scraper-worker.mjs), seen from the main thread. */
export interface Scraper {
  /** GETs `url` once; resolves with the body's size and the scrape's time as the scraper saw it. */
  scrape(url: string): Promise<{ bytes: number; ms: number }>;
  stop(): Promise<void>;
}

/** Starts the scraper thread. */
export async function startScraper(): Promise<Scraper> {
  const worker = new Worker(new URL('./scraper-worker.mjs', import.meta.url));
  await new Promise<void>((resolve, reject) => {
    worker.once('online', resolve);
    worker.once('error', reject);
  });
  const next = <T>(): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const onError = (error: Error): void => {
        worker.off('message', onMessage);
        reject(error);
      };
      const onMessage = (message: T): void => {
        worker.off('error', onError);
        resolve(message);
      };
      worker.once('message', onMessage);
      worker.once('error', onError);
    });
  return {
    scrape(url) {
      const answer = next<{ bytes: number; ms: number }>();
      worker.postMessage({ url });
      return answer;
    },
    async stop() {
      await worker.terminate();
    },
  };
}

/**
 * Starts measuring the time this thread's event loop is busy (not waiting for I/O); the function returned gives
 * the milliseconds since. With the scraper in another thread, that is the serving side of a scrape alone.
 */
export function threadBusyMs(): () => number {
  const before = performance.eventLoopUtilization();
  return () => performance.eventLoopUtilization(before).active;
}

/** A port free on 127.0.0.1 now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
