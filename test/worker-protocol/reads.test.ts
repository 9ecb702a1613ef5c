// What one read of a place adds to the main thread's series, in process: only what the worker's numbers gained since
// the last read. A slot that gained nothing adds nothing, not even a zero, so a series a worker scoped but never
// recorded into is exported no more than the main thread's own would be; and a counter read below what was already
// taken (docs/workers.md, "Tearing": a torn or early read) adds nothing and waits for a later read.
import type { MeterProvider } from '@opentelemetry/api';
import { createBackupStats, type WorkerLink } from 'backupstats';
import { connectBackupStats } from 'backupstats/worker';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { valuesByKey } from '../support/harness.js';

/** Stats on `meterProvider`, its one-place link's worker, and the place's memory as numbers. */
function oneWorker(meterProvider: MeterProvider) {
  const stats = createBackupStats({ meterProvider });
  onTestFinished(() => stats.shutdown());
  const link = stats.workerLink({ workers: 1, maxScopes: 2 });
  const worker = connectBackupStats(link);
  onTestFinished(() => worker.close());
  return { stats, worker, numbers: new Float64Array((link as WorkerLink & { memory: SharedArrayBuffer }).memory) };
}

describe('a read of a place', () => {
  it('adds nothing for a slot that gained nothing: a series scoped and never recorded into is not exported', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    onTestFinished(() => stats.shutdown());
    const worker = connectBackupStats(stats.workerLink());
    onTestFinished(() => worker.close());
    // The root's slots (published at the connection) and one more, all without a record; the main thread's own too.
    worker.backup.scope({ operation: 'Idle' });
    stats.backup.scope({ operation: 'Own' });
    const series = (values: Map<string, number>): string[] =>
      [...values.keys()].filter((key) => /^(backup|restore)\.(operations|bytes|time)\{/.test(key));
    expect(series(valuesByKey(await harness.collect()))).toEqual([]);
    worker.backup.scope({ operation: 'Idle' }).timedIncrementBytes(4, 2);
    expect(series(valuesByKey(await harness.collect()))).toEqual([
      'backup.operations{-,-,Idle}',
      'backup.bytes{-,-,Idle}',
      'backup.time{-,-,Idle}',
    ]);
    // Read again with nothing new: the same totals, and still nothing for the root's slots.
    const values = valuesByKey(await harness.collect());
    expect(series(values)).toHaveLength(3);
    expect([values.get('backup.operations{-,-,Idle}'), values.get('backup.bytes{-,-,Idle}')]).toEqual([1, 4]);
  });

  it('adds nothing for a counter read below what it took, and only the gain once it is above again', async ({
    harness,
  }) => {
    const { worker, numbers } = oneWorker(harness.provider);
    for (let i = 0; i < 3; i++) worker.backup.timedIncrementBytes(4115, 226);
    // The slot's three cumulative numbers, found by their values (the stats keep no histogram).
    const cells = [3, 12_345, 678].map((value) => [...numbers.keys()].filter((i) => numbers[i] === value));
    expect(cells.map((found) => found.length)).toEqual([1, 1, 1]);
    const totals = async (): Promise<(number | undefined)[]> => {
      const values = valuesByKey(await harness.collect());
      return ['operations', 'bytes', 'time'].map((name) => values.get(`backup.${name}{-,-,-}`));
    };
    expect(await totals()).toEqual([3, 12_345, 0.678]);
    // Each number read below what was taken, then back where it was: nothing is added either time.
    for (const [at] of cells) numbers[at as number] = 1;
    expect(await totals()).toEqual([3, 12_345, 0.678]);
    for (const [i, [at]] of cells.entries()) numbers[at as number] = [3, 12_345, 678][i] as number;
    expect(await totals()).toEqual([3, 12_345, 0.678]);
    // A record whose milliseconds are read below what was taken while its count and bytes are read whole: the count
    // and bytes are added, the time waits, and comes with the next read as the gain over what was taken.
    worker.backup.timedIncrementBytes(1_000_000, 2);
    const millis = cells[2]?.[0] as number;
    numbers[millis] = 1;
    expect(await totals()).toEqual([4, 1_012_345, 0.678]);
    numbers[millis] = 680;
    const [operations, bytes, time] = await totals();
    expect([operations, bytes]).toEqual([4, 1_012_345]);
    expect(time).toBeCloseTo(0.68, 12);
  });

  it("adds no count for a count read below what it took, taking nothing off the main thread's own records", async ({
    harness,
  }) => {
    const { stats, worker, numbers } = oneWorker(harness.provider);
    for (let i = 0; i < 2; i++) worker.backup.timedIncrementBytes(10, 5);
    // The slot's count, found by its value before a read copies the bytes and time it took beside the slot.
    const counts = [...numbers.keys()].filter((i) => numbers[i] === 2);
    expect(counts).toHaveLength(1);
    const count = counts[0] as number;
    const totals = async (): Promise<(number | undefined)[]> => {
      const values = valuesByKey(await harness.collect());
      return ['operations', 'bytes', 'time'].map((name) => values.get(`backup.${name}{-,-,-}`));
    };
    expect(await totals()).toEqual([2, 20, 0.01]);
    // The worker's third record, read with its count below what was taken, and one of the main thread's own.
    worker.backup.timedIncrementBytes(10, 5);
    numbers[count] = 1;
    stats.backup.timedIncrement(5);
    expect(await totals()).toEqual([3, 30, 0.02]);
    numbers[count] = 3;
    expect(await totals()).toEqual([4, 30, 0.02]);
  });
});
