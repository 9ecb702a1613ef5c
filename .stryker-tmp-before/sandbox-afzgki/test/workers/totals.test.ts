// @ts-nocheck
// Several worker threads record through one link while the main thread flushes every millisecond and collects
// again and again: every record counts exactly once, and every collected histogram is consistent (its count is
// what its buckets hold, and its sum is that count times the scope's one duration).
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { bucketsAddUp, statsWithHistograms } from '../support/histogram-stats.js';
import { startRecordingWorker } from '../support/workers.js';

const WORKERS = 3;
const ROUNDS = 40;
const PER_ROUND = 5_000;
/** Each worker records on its own operation with one duration, and on a shared one with another. */
const OWN_MS = [0.25, 3, 700];
const SHARED_MS = 12.5;

describe('worker threads recording while the main thread flushes', () => {
  it('every record is exported once, and every collection sees consistent histograms', async () => {
    const { stats, collect } = statsWithHistograms({ flushIntervalMillis: 1 });
    const link = stats.workerLink({ workers: WORKERS });
    const workers = await Promise.all(Array.from({ length: WORKERS }, () => startRecordingWorker(link)));
    const consistent = (exported: Awaited<ReturnType<typeof collect>>): void => {
      for (const [i, ms] of [...OWN_MS.entries(), [WORKERS, SHARED_MS] as const]) {
        const point = exported.histogram({ operation: `op-${i}` });
        if (point === undefined) continue;
        expect(bucketsAddUp(point)).toBe(true);
        expect(point.sum).toBeCloseTo((point.count * ms) / 1000, 6);
      }
    };
    const recording = workers.map(async (worker, i) => {
      for (let round = 0; round < ROUNDS; round++) {
        // Weights as sampled timing gives them: the weighted count and sum move together.
        await worker.run({
          kind: 'loop',
          count: PER_ROUND,
          ms: OWN_MS[i] as number,
          bytes: 3,
          weight: 1 + (round % 3),
          labels: { operation: `op-${i}` },
        });
        await worker.run({
          kind: 'loop',
          count: PER_ROUND,
          ms: SHARED_MS,
          bytes: 1,
          labels: { operation: `op-${WORKERS}` },
        });
      }
    });
    let finished = false;
    const done = Promise.all(recording).finally(() => {
      finished = true;
    });
    while (!finished) consistent(await collect());
    await done;

    const exported = await collect();
    consistent(exported);
    const weights = Array.from({ length: ROUNDS }, (_, round) => 1 + (round % 3)).reduce((a, b) => a + b, 0);
    for (const [i, ms] of OWN_MS.entries()) {
      const key = `{-,-,op-${i}}`;
      expect(exported.values.get(`backup.operations${key}`)).toBe(ROUNDS * PER_ROUND);
      expect(exported.values.get(`backup.bytes${key}`)).toBe(ROUNDS * PER_ROUND * 3);
      expect(exported.values.get(`backup.time${key}`)).toBeCloseTo((weights * PER_ROUND * ms) / 1000, 3);
      expect(exported.histogram({ operation: `op-${i}` })?.count).toBe(weights * PER_ROUND);
    }
    const shared = WORKERS * ROUNDS * PER_ROUND;
    expect(exported.values.get(`backup.operations{-,-,op-${WORKERS}}`)).toBe(shared);
    expect(exported.values.get(`backup.bytes{-,-,op-${WORKERS}}`)).toBe(shared);
    expect(exported.histogram({ operation: `op-${WORKERS}` })?.count).toBe(shared);
  });

  it('the main thread and the workers add up in one series per labels', async () => {
    const { stats, collect } = statsWithHistograms();
    const labels = { component: 'BackupEngine', implementation: 'Builtin', operation: 'Compressor:Write' };
    const worker = await startRecordingWorker(stats.workerLink());
    stats.backup.scope(labels).timedIncrementBytes(100, 2);
    await worker.run({ kind: 'loop', count: 10, ms: 2, bytes: 100, labels });
    stats.flush();
    const exported = await collect();
    expect(exported.values.get('backup.operations{BackupEngine,Builtin,Compressor:Write}')).toBe(11);
    expect(exported.values.get('backup.bytes{BackupEngine,Builtin,Compressor:Write}')).toBe(1100);
    const point = exported.histogram(labels);
    expect(point?.count).toBe(11);
    expect(point?.min).toBe(0.002);
    expect(point?.max).toBe(0.002);
  });
});
