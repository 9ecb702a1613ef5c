// @ts-nocheck
// Worker threads for the tests in test/workers/: each runs test/fixtures/recording-worker.mjs, which loads the
// built library, connects to a link and does what it is told. Every thread is terminated when the test ends.
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { WorkerLink } from 'backupstats';
import { onTestFinished } from 'vitest';

const script = fileURLToPath(new URL('../fixtures/recording-worker.mjs', import.meta.url));

/** What a recording worker can be told (see the fixture for each kind). */
export type Task =
  | {
      kind: 'loop';
      count: number;
      ms: number;
      bytes?: number;
      weight?: number;
      family?: 'backup' | 'restore';
      labels?: object;
    }
  | { kind: 'forever'; progress: SharedArrayBuffer; ms: number; bytes: number; weight?: number; labels?: object }
  | { kind: 'crash'; after: number; ms: number; bytes: number; labels?: object }
  | { kind: 'scopes'; count: number }
  | { kind: 'invalid'; count: number; labels?: object }
  | { kind: 'run'; labels?: object }
  | { kind: 'stream'; chunks: number; size: number; labels?: object }
  | { kind: 'close' };

/** A running recording worker. */
export interface RecordingWorker {
  readonly worker: Worker;
  /** Sends a task and waits for its answer; rejects when the task failed or the thread ended first. */
  run(task: Task): Promise<void>;
  /** Sends a task without waiting. */
  send(task: Task): void;
  /** Resolves with the exit code once the thread has ended. */
  readonly exited: Promise<number>;
}

/** Starts a worker on `link` and waits until it has connected (rejects with the connection's error). */
export async function startRecordingWorker(link: WorkerLink): Promise<RecordingWorker> {
  const worker = new Worker(script, { workerData: { link } });
  onTestFinished(() => worker.terminate().then(() => undefined));
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
  // A thread that ended by an error has said so: the tests look at what it recorded, not at the error.
  worker.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  // The worker answers its tasks in order, one message each: the answers settle the tasks in the order sent.
  const waiting: Array<{ resolve: () => void; reject: (error: Error) => void; kind: string }> = [];
  worker.on('message', (message: { done?: string; failed?: string; started?: boolean }) => {
    if (message.started === true) return;
    const task = waiting.shift();
    if (message.failed !== undefined) task?.reject(new Error(message.failed));
    else task?.resolve();
  });
  void exited.then(() => {
    for (const task of waiting.splice(0)) task.reject(new Error(`the worker ended before it finished ${task.kind}`));
  });
  return {
    worker,
    exited,
    send: (task) => worker.postMessage(task),
    run: (task) =>
      new Promise<void>((resolve, reject) => {
        waiting.push({ resolve, reject, kind: task.kind });
        worker.postMessage(task);
      }),
  };
}
