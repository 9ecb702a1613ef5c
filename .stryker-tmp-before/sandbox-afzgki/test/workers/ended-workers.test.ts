// @ts-nocheck
// A worker that is terminated in the middle of recording, or crashes on an uncaught exception, keeps what it
// recorded: the shared memory is the main thread's too. A record is written whole or not at all, and the place
// goes to the next worker, which adds to the same numbers.
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { bucketsAddUp, statsWithHistograms } from '../support/histogram-stats.js';
import { startRecordingWorker } from '../support/workers.js';

const labels = { operation: 'Compressor:Write' };
const key = '{-,-,Compressor:Write}';

describe('workers that end', () => {
  it('terminate() in the middle of recording: every finished record counts, none counts in part', async () => {
    const { stats, collect } = statsWithHistograms({ flushIntervalMillis: 1 });
    const link = stats.workerLink();
    let finished = 0;
    for (let round = 0; round < 5; round++) {
      const worker = await startRecordingWorker(link);
      const progress = new SharedArrayBuffer(4);
      worker.send({ kind: 'forever', progress, ms: 1.5, bytes: 7, weight: 2, labels });
      await new Promise((resolve) => worker.worker.once('message', resolve));
      // Let it record a while, a different while each round, then stop it wherever it is.
      await new Promise((resolve) => setTimeout(resolve, 5 + round * 7));
      await worker.worker.terminate();
      // The record in progress when it stopped either made it whole (before its progress was counted) or not at all.
      const exported = await collect();
      const operations = exported.values.get(`backup.operations${key}`) as number;
      const counted = Atomics.load(new Int32Array(progress), 0);
      expect(operations - finished - counted).toBeGreaterThanOrEqual(0);
      expect(operations - finished - counted).toBeLessThanOrEqual(1);
      finished = operations;
      expect(exported.values.get(`backup.bytes${key}`)).toBe(operations * 7);
      const point = exported.histogram(labels);
      expect(point && bucketsAddUp(point)).toBe(true);
      expect(point?.count).toBe(operations * 2);
      expect(point?.sum).toBeCloseTo((operations * 2 * 1.5) / 1000, 6);
    }
    expect(finished).toBeGreaterThan(0);
  });

  it('an uncaught exception in the middle of recording: what was recorded before it is exported', async () => {
    const { stats, collect } = statsWithHistograms();
    const link = stats.workerLink();
    const worker = await startRecordingWorker(link);
    worker.send({ kind: 'crash', after: 12_345, ms: 4, bytes: 10, labels });
    expect(await worker.exited).toBe(1);
    // The place was given back at the thread's exit: the next worker takes it and goes on with its numbers.
    const next = await startRecordingWorker(link);
    await next.run({ kind: 'loop', count: 5, ms: 4, bytes: 10, labels });
    const exported = await collect();
    expect(exported.values.get(`backup.operations${key}`)).toBe(12_350);
    expect(exported.values.get(`backup.bytes${key}`)).toBe(123_500);
    expect(exported.histogram(labels)?.count).toBe(12_350);
  });

  it('a terminated worker keeps its place until another worker finds it gone and takes it over', async () => {
    const { stats, collect } = statsWithHistograms();
    const link = stats.workerLink({ workers: 2 });
    const first = await startRecordingWorker(link);
    const second = await startRecordingWorker(link);
    await first.run({ kind: 'loop', count: 100, ms: 1, labels });
    await second.run({ kind: 'loop', count: 10, ms: 1, labels });
    // Both places are taken by live workers: a third is refused, naming what would do.
    await expect(startRecordingWorker(link)).rejects.toThrow(
      'backupstats: connectBackupStats link is a link whose 2 place(s) are all taken by live workers; accepted: a link with a free place',
    );
    await first.worker.terminate();
    const third = await startRecordingWorker(link);
    await third.run({ kind: 'loop', count: 1, ms: 1, labels });
    await second.run({ kind: 'loop', count: 10, ms: 1, labels });
    const exported = await collect();
    expect(exported.values.get(`backup.operations${key}`)).toBe(121);
  });

  it('close() gives the place back: the next worker goes on with the same numbers, later records go nowhere', async () => {
    const { stats, collect } = statsWithHistograms();
    const link = stats.workerLink();
    const worker = await startRecordingWorker(link);
    await worker.run({ kind: 'loop', count: 3, ms: 1, bytes: 1, labels });
    await worker.run({ kind: 'close' });
    await worker.run({ kind: 'loop', count: 1000, ms: 1, bytes: 1, labels });
    await worker.run({ kind: 'scopes', count: 3 });
    await worker.run({ kind: 'invalid', count: 2 });
    const next = await startRecordingWorker(link);
    await next.run({ kind: 'loop', count: 4, ms: 1, bytes: 1, labels });
    const exported = await collect();
    expect(exported.values.get(`backup.operations${key}`)).toBe(7);
    expect(exported.histogram(labels)?.count).toBe(7);
    expect(exported.values.get('backup.operations{-,-,op-0}')).toBeUndefined();
    expect(exported.values.get('backup.operations{overflow}')).toBeUndefined();
    expect(exported.values.get('backupstats.invalid_measurements{backup}')).toBe(0);
  });
});
