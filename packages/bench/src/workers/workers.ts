import { Worker } from 'node:worker_threads';
import { createBackupStats, createHistogramProducer } from 'backupstats';
import type { BenchConfig } from '../config.js';
import { createOtelSetup } from '../harness/otel.js';
import { type Summary, summarize } from '../harness/sample.js';
import { timeRecords } from './record-loop.js';

/** One record on a held handle, on the main thread and in a worker, same code, same run. */
export interface WorkerRecordRow {
  readonly case: string;
  readonly mainNs: number;
  readonly workerNs: number;
}

/** The main thread's flush() with every worker scope recorded on since the last one. */
export interface WorkerFlushRow {
  readonly workers: number;
  readonly scopesPerWorker: number;
  readonly flushMs: Summary;
  /** flush() of as many main-thread handles, each recorded on once: the same SDK calls, no shared memory read. */
  readonly mainOnlyMs: Summary;
}

export interface WorkersResult {
  readonly records: readonly WorkerRecordRow[];
  readonly flush: WorkerFlushRow;
}

const CHILD = new URL('./workers-child.mjs', import.meta.url);

function start(link: unknown, scopes: number, prefix: string): Promise<Worker> {
  const worker = new Worker(CHILD, { workerData: { link, scopes, prefix } });
  return new Promise((resolve, reject) => {
    worker.once('message', () => resolve(worker));
    worker.once('error', reject);
  });
}

function ask<T>(worker: Worker, task: object): Promise<T> {
  return new Promise((resolve) => {
    worker.once('message', resolve);
    worker.postMessage(task);
  });
}

/** A record in a worker next to the same record on the main thread, and the main thread's flush with 8 workers. */
export async function runWorkers(config: BenchConfig): Promise<WorkersResult> {
  const records = config.quick ? 20_000 : 200_000;
  const samples = config.quick ? 5 : 31;
  const rows: WorkerRecordRow[] = [];
  for (const histograms of [true, false]) {
    const otel = createOtelSetup();
    const stats = createBackupStats({
      meterProvider: otel.provider,
      histogramProducers: histograms ? [createHistogramProducer()] : [],
    });
    const worker = await start(stats.workerLink(), 0, 'w');
    const held = stats.backup.scope({
      component: 'BackupEngine',
      implementation: 'Builtin',
      operation: 'Compressor:Write',
    });
    // Alternated, so that neither side always runs on a warmer machine.
    const main: number[] = [];
    const inWorker: number[] = [];
    for (let round = 0; round < 3; round++) {
      main.push(timeRecords(held, records, samples));
      inWorker.push(await ask<number>(worker, { kind: 'time', records, samples }));
    }
    rows.push({
      case: histograms ? 'held handle, with its latency histogram' : 'held handle, no histogram',
      mainNs: summarize(main).median,
      workerNs: summarize(inWorker).median,
    });
    await worker.terminate();
    await stats.shutdown();
    await otel.shutdown();
  }
  return { records: rows, flush: await runFlush(config) };
}

async function runFlush(config: BenchConfig): Promise<WorkerFlushRow> {
  // --quick: 1 worker of 10 scopes (each worker thread loads tsx and the library: most of a quick run's CPU).
  const WORKERS = config.quick ? 1 : 8;
  const SCOPES = config.quick ? 10 : 100;
  const repetitions = config.quick ? 5 : 50;
  const otel = createOtelSetup();
  const stats = createBackupStats({ meterProvider: otel.provider, histogramProducers: [createHistogramProducer()] });
  const link = stats.workerLink({ workers: WORKERS, maxScopes: SCOPES + 2 });
  const workers = await Promise.all(Array.from({ length: WORKERS }, (_, i) => start(link, SCOPES, `w${i}`)));
  const main = Array.from({ length: WORKERS * SCOPES }, (_, i) => stats.backup.scope({ operation: `main-${i}` }));
  const flushMs: number[] = [];
  const mainOnlyMs: number[] = [];
  for (let r = 0; r < repetitions; r++) {
    await Promise.all(workers.map((worker) => ask(worker, { kind: 'dirty' })));
    let start = process.hrtime.bigint();
    stats.flush();
    flushMs.push(Number(process.hrtime.bigint() - start) / 1e6);
    for (const handle of main) handle.timedIncrementBytes(4096, 0.5);
    start = process.hrtime.bigint();
    stats.flush();
    mainOnlyMs.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const expected = repetitions * WORKERS * SCOPES;
  const exported = await otel.total('backup.operations');
  if (exported !== 2 * expected) throw new Error(`workers: exported ${exported} operations, expected ${2 * expected}`);
  await Promise.all(workers.map((worker) => worker.terminate()));
  await stats.shutdown();
  await otel.shutdown();
  return {
    workers: WORKERS,
    scopesPerWorker: SCOPES,
    flushMs: summarize(flushMs),
    mainOnlyMs: summarize(mainOnlyMs),
  };
}
