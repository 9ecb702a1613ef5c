// Runs one memory scenario in a fresh process started with --expose-gc and prints its result as JSON on the
// last line of stdout. A fresh process keeps the other benchmarks' garbage and JIT code out of the numbers.
// `memory-child.ts scenario count [scenario count ...]`: several scenarios one after the other, one JSON line each,
// for a quick run, whose figures mean nothing.
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { Component, createBackupStats, createHistogramProducer, Implementation, type Stats } from 'backupstats';
import { createOtelSetup } from '../harness/otel.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('memory-child: run node with --expose-gc');
const collectGarbage: () => void = gc;

/**
 * Memory in use after full collections (two passes let finalizers and weak references settle): the V8 heap and
 * the ArrayBuffers' backing stores, which V8 keeps outside its heap for any typed array over 64 bytes, as a latency
 * histogram's buckets are.
 */
function heapAfterGc(): number {
  collectGarbage();
  collectGarbage();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

const BATCH = 100_000;

/** Records `total` measurements round-robin on `handles`, yielding between batches so the flush timer runs. */
async function recordMany(handles: readonly Stats[], total: number): Promise<void> {
  const n = handles.length;
  for (let done = 0; done < total; done += BATCH) {
    const end = Math.min(total, done + BATCH);
    for (let i = done; i < end; i++)
      (handles[i % n] as Stats).timedIncrementBytes(4096 + (i & 1023), 0.01 + (i & 7) * 0.001);
    await yieldToLoop();
  }
}

async function records(total: number): Promise<Record<string, number>> {
  const otel = createOtelSetup();
  const stats = createBackupStats({ meterProvider: otel.provider });
  const handles: Stats[] = [];
  for (let i = 0; i < 100; i++) {
    handles.push(
      stats.backup.scope({
        component: Component.BackupEngine,
        implementation: Implementation.Builtin,
        operation: `Op:${i}`,
      }),
    );
  }
  // Warm up first, so the baseline already holds the optimized code and the SDK's series for all 100 handles.
  await recordMany(handles, Math.min(total, 1_000_000));
  await otel.collect();
  const before = heapAfterGc();
  await recordMany(handles, total);
  await otel.collect();
  const after = heapAfterGc();
  const ops = await otel.total('backup.operations');
  const expected = Math.min(total, 1_000_000) + total;
  if (ops !== expected) throw new Error(`memory-child: exported ${ops} operations, expected ${expected}`);
  await stats.shutdown();
  await otel.shutdown();
  return { records: total, handles: 100, heapBeforeBytes: before, heapAfterBytes: after, growthBytes: after - before };
}

async function scopes(total: number, bound: number, histograms: boolean): Promise<Record<string, number>> {
  const otel = createOtelSetup();
  // Default maxScopes (1999); with a histogram producer attached, every series keeps its latency histogram.
  const stats = createBackupStats({
    meterProvider: otel.provider,
    histogramProducers: histograms ? [createHistogramProducer()] : [],
  });
  const request = (from: number, to: number): void => {
    for (let i = from; i < to; i++) {
      stats.backup
        .scope({ component: Component.BackupStorage, implementation: Implementation.S3, operation: `Op:${i}` })
        .timedIncrementBytes(1, 0.01);
    }
  };
  await otel.collect();
  const empty = heapAfterGc();
  request(0, bound);
  await otel.collect();
  const atBound = heapAfterGc();
  request(bound, total);
  await otel.collect();
  const after = heapAfterGc();
  const ops = await otel.total('backup.operations');
  if (ops !== total) throw new Error(`memory-child: exported ${ops} operations for ${total} scopes, expected ${total}`);
  await stats.shutdown();
  await otel.shutdown();
  return {
    scopeRequests: total,
    maxScopes: bound,
    heapEmptyBytes: empty,
    heapAtBoundBytes: atBound,
    heapAfterBytes: after,
    growthToBoundBytes: atBound - empty,
    growthPastBoundBytes: after - atBound,
  };
}

const args = process.argv.slice(2);
if (args.length === 0 || args.length % 2 !== 0)
  throw new Error(`memory-child: give pairs of a scenario and a count, not ${JSON.stringify(args)}`);
for (let i = 0; i < args.length; i += 2) {
  const [scenario, count] = [args[i], args[i + 1]];
  const total = Number(count);
  if (!Number.isSafeInteger(total) || total < 1)
    throw new Error(`memory-child: count "${count}" is not a whole number of 1 or more`);
  let result: Record<string, number>;
  if (scenario === 'records') result = await records(total);
  else if (scenario === 'scopes') result = await scopes(total, Math.min(total, 1999), false);
  else if (scenario === 'scopes-histograms') result = await scopes(total, Math.min(total, 1999), true);
  else throw new Error(`memory-child: scenario "${scenario}"; accepted: records, scopes, scopes-histograms`);
  console.log(JSON.stringify(result));
}
