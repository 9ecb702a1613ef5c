import { PassThrough, type Readable } from 'node:stream';
import { MessageChannel } from 'node:worker_threads';
import type { WorkerLink } from 'backupstats';
import { Piscina } from 'piscina';
import type { ChunkMessage, CompressTask } from './compress-task.js';
import type { Compression } from './manifest.js';

/** Compression and checksums in worker threads (`--workers N`). */
export interface CompressPool {
  /**
   * Compresses one file in a worker: `output` carries the compressed chunks (the worker sends the next once it is
   * taken), `done` its size and sha256. `advance` hears of the source bytes read, for the progress.
   */
  compress(
    path: string,
    compression: Compression,
    level: number | undefined,
    advance: (bytes: number) => void,
  ): { output: Readable; done: Promise<{ size: number; sha256: string }> };
  close(): Promise<void>;
}

/**
 * The workers' entry. Run through tsx (this file is `.ts`), it is compress-task.mjs, which registers tsx in the
 * worker before loading the TypeScript task; compiled to JavaScript (dist/, as the tests run the tool), it is the
 * compiled task itself, so that the compiled tool never loads tsx.
 */
const TASK_ENTRY = new URL(
  import.meta.url.endsWith('.ts') ? './compress-task.mjs' : './compress-task.js',
  import.meta.url,
).href;

/** A pool of `threads` workers recording through `link` (made with `workers: threads`). */
export function createCompressPool(threads: number, link: WorkerLink): CompressPool {
  const pool = new Piscina({
    filename: TASK_ENTRY,
    workerData: { link },
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Number.POSITIVE_INFINITY,
  });
  return {
    compress(path, compression, level, advance) {
      const { port1, port2 } = new MessageChannel();
      const output = new PassThrough({ highWaterMark: 64 * 1024 });
      port1.on('message', ({ chunk, read }: ChunkMessage) => {
        advance(read);
        if (output.write(chunk)) port1.postMessage(0);
        else output.once('drain', () => port1.postMessage(0));
      });
      const task: CompressTask = { path, compression, level, port: port2 };
      const done = (
        pool.run(task, { transferList: [port2] }) as Promise<{ size: number; sha256: string; read: number }>
      ).then(
        (result) => {
          advance(result.read);
          output.end();
          port1.close();
          return result;
        },
        (error: unknown) => {
          output.destroy(error as Error);
          port1.close();
          throw error;
        },
      );
      return { output, done };
    },
    close: () => pool.destroy(),
  };
}
