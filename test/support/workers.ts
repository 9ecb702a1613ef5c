// Worker threads for the tests in test/workers/ and test/worker-protocol/: each runs
// test/fixtures/recording-worker.mjs, which connects to a link and does what it is told. Every thread is terminated
// when the test ends.
//
// The thread loads the library the test loads. In the mutation run (vitest.unit.config.ts) that is the source,
// named by BACKUPSTATS_SOURCE_CORE / BACKUPSTATS_SOURCE_WORKER, and the thread loads it through tsx; StrykerJS's
// vitest runner says which mutant is active in the test's global `__stryker__` only, and the source's mutant switches
// also read it from the environment variable `__STRYKER_ACTIVE_MUTANT__`, so the thread gets it there: both sides of
// the shared memory then run the same mutant. Everywhere else the thread loads the build, as the test does.
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
  | { kind: 'close' }
  | { kind: 'closeLater'; millis: number }
  | { kind: 'exit' };

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
  const worker = new Worker(script, { workerData: { link, source: librarySource() }, env: threadEnv() });
  onTestFinished(() => worker.terminate().then(() => undefined));
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
  // A thread that ended by an error has reported it: the tests look at what it recorded, not at the error.
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

/** The library's source files when the test loads them (the mutation run), else undefined: the build. */
function librarySource(): { core: string; worker: string; version: string } | undefined {
  const { BACKUPSTATS_SOURCE_CORE: core, BACKUPSTATS_SOURCE_WORKER: worker, BACKUPSTATS_SOURCE_VERSION } = process.env;
  if (core === undefined || worker === undefined) return undefined;
  return { core, worker, version: BACKUPSTATS_SOURCE_VERSION ?? '' };
}

/** The thread's environment: the test's, with the mutant StrykerJS has made active in this process, if any. */
function threadEnv(): NodeJS.ProcessEnv {
  const active = (globalThis as { __stryker__?: { activeMutant?: unknown } }).__stryker__?.activeMutant;
  return active === undefined ? { ...process.env } : { ...process.env, __STRYKER_ACTIVE_MUTANT__: String(active) };
}
