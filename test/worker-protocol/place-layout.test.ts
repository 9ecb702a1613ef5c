// Where a place's numbers lie, seen from outside, in process: the size of its memory (what docs/workers.md says a
// place costs), and a place filled to its last slot in both families, with histograms and invalid measurements, whose
// every number comes back in its own series, the first time it is read and after another worker took the place over.
// A layout whose parts overlapped (a family's invalid count on a slot's labels, labels on a sequence number) or were
// laid out differently by the two sides would mix them up here.
import { createBackupStats, createHistogramProducer, type WorkerLink } from 'backupstats';
import { connectBackupStats, type WorkerBackupStats } from 'backupstats/worker';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { histograms, valuesByKey } from '../support/harness.js';
import { statsWithHistograms } from '../support/histogram-stats.js';

/** The link's buffers (link/worker-link.ts's LinkData). */
const buffers = (link: WorkerLink) => link as unknown as { control: SharedArrayBuffer; memory: SharedArrayBuffer };

/** The worker side of `link`, on this thread, let go when the test ends. */
function connect(link: WorkerLink): WorkerBackupStats {
  const worker = connectBackupStats(link);
  onTestFinished(() => worker.close());
  return worker;
}

describe("a place's memory", () => {
  // Per place (four families): a header of 56 + 80 × maxScopes bytes (the slot counts, the label heap's end, per slot a sequence
  // number, where its labels are and two rebase words, each family's invalid count), then maxScopes slots per family
  // of 3 doubles, or 8 + 255 + (boundaries + 1) with histograms, then 4 rebase doubles per slot, then 256 bytes of
  // labels per slot.
  it('is workers × the size of a place, 2,658,360 bytes with histograms at the defaults (docs/workers.md)', () => {
    const plain = createBackupStats();
    onTestFinished(() => plain.shutdown());
    const kept = (histogramBoundaries?: number[]) => {
      const stats = createBackupStats({ histogramProducers: [createHistogramProducer()], histogramBoundaries });
      onTestFinished(() => stats.shutdown());
      return stats;
    };
    const sizes = [
      plain.workerLink({ workers: 1, maxScopes: 2 }),
      plain.workerLink({ workers: 3 }),
      kept().workerLink({ workers: 1 }),
      kept([0.001, 1]).workerLink({ workers: 2, maxScopes: 4 }),
    ].map((link) => [buffers(link).memory.byteLength, buffers(link).control.byteLength]);
    expect(sizes).toEqual([
      [56 + 1328 * 2, 20],
      [3 * (56 + 1328 * 256), 44],
      [2_658_360, 20],
      [2 * (56 + 80 * 4 + 4 * 4 * 8 * (8 + 255 + 3) + 4 * 4 * 32 + 4 * 4 * 256), 32],
    ]);
  });
});

describe('a place filled to its last slot in both families', () => {
  // maxScopes 4: the overflow slot, the root's and two more per family; the fifth combination overflows.
  // Family, labels, bytes, milliseconds.
  const RECORDS = [
    ['backup', {}, 1, 1],
    ['backup', { operation: 'A' }, 2, 2],
    ['backup', { component: 'B' }, 3, 4],
    ['restore', {}, 10, 16],
    ['restore', { operation: 'X' }, 20, 32],
    ['restore', { implementation: 'Y' }, 30, 64],
  ] as const;
  const OVERFLOWING = [
    ['backup', { operation: 'C' }, 5, 8],
    ['restore', { operation: 'Z' }, 40, 128],
  ] as const;

  /** Records every row once through `worker`, and an invalid measurement in each family (two in restore). */
  function recordAll(worker: WorkerBackupStats): void {
    for (const [family, labels, bytes, ms] of [...RECORDS, ...OVERFLOWING]) {
      worker[family].scope(labels).timedIncrementBytes(bytes, ms);
    }
    worker.backup.timedIncrement(-1);
    worker.restore.scope({ operation: 'X' }).timedIncrement(-1);
    worker.restore.timedIncrement(Number.NaN);
  }

  it('keeps every number in its own series, read at once and after another worker took the place over', async () => {
    const { stats, harness } = statsWithHistograms();
    const link = stats.workerLink({ workers: 1, maxScopes: 4 });
    const check = async (rounds: number): Promise<void> => {
      const exported = await harness.collect();
      const values = valuesByKey(exported);
      const points = histograms(exported);
      const key = (labels: { component?: string; implementation?: string; operation?: string }): string =>
        `{${labels.component ?? '-'},${labels.implementation ?? '-'},${labels.operation ?? '-'}}`;
      const attributes = (labels: { component?: string; implementation?: string; operation?: string }): string =>
        `{component=${labels.component ?? '-'},implementation=${labels.implementation ?? '-'},operation=${labels.operation ?? '-'}}`;
      for (const [family, labels, bytes, ms] of RECORDS) {
        const point = points.get(`${family}.operation.duration${attributes(labels)}`);
        // X holds one invalid record a round too, which counts nowhere but in the invalid count.
        expect([family, labels, values.get(`${family}.operations${key(labels)}`)]).toEqual([family, labels, rounds]);
        expect(values.get(`${family}.bytes${key(labels)}`)).toBe(bytes * rounds);
        expect(point).toMatchObject({ count: rounds, min: ms / 1000, max: ms / 1000 });
      }
      for (const [family, , bytes, ms] of OVERFLOWING) {
        expect(values.get(`${family}.operations{overflow}`)).toBe(rounds);
        expect(values.get(`${family}.bytes{overflow}`)).toBe(bytes * rounds);
        expect(points.get(`${family}.operation.duration{otel.metric.overflow=true}`)).toMatchObject({
          count: rounds,
          min: ms / 1000,
          max: ms / 1000,
        });
      }
      expect(values.get('backup.operations{-,-,C}')).toBeUndefined();
      expect(values.get('restore.operations{-,-,Z}')).toBeUndefined();
      expect(values.get('backupstats.invalid_measurements{backup}')).toBe(rounds);
      expect(values.get('backupstats.invalid_measurements{restore}')).toBe(2 * rounds);
    };
    const first = connect(link);
    recordAll(first);
    await check(1);
    first.close();
    // The next worker finds the slots and their labels, and scopes them in another order.
    const next = connect(link);
    next.restore.scope({ implementation: 'Y' });
    next.backup.scope({ operation: 'C' });
    recordAll(next);
    await check(2);
    // One family alone: each slot's histogram is read by its own sequence number, not by the other family's.
    for (const labels of [{}, { operation: 'X' }, { implementation: 'Y' }])
      next.restore.scope(labels).timedIncrement(3);
    const points = histograms(await harness.collect());
    const counts = [
      'component=-,implementation=-,operation=-',
      'component=-,implementation=-,operation=X',
      'component=-,implementation=Y,operation=-',
    ].map((attributes) => points.get(`restore.operation.duration{${attributes}}`)?.count);
    expect(counts).toEqual([3, 3, 3]);
    expect(points.get('backup.operation.duration{component=-,implementation=-,operation=A}')?.count).toBe(2);
  });
});
