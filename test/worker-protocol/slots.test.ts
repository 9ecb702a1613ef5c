// The slots of a place, in process: a worker's series each take a slot of its family (the overflow series and the
// root's labels take the first two), published to the main thread by the slot count with their labels in the label
// heap, which both families share. Past maxScopes, or when labels no longer fit the heap, a scope records into the
// family's overflow series.
import { createBackupStats, type WorkerLink } from 'backupstats';
import { connectBackupStats, type WorkerBackupStats } from 'backupstats/worker';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import type { Harness } from '../support/harness.js';
import { histograms, valuesByKey } from '../support/harness.js';
import { statsWithHistograms } from '../support/histogram-stats.js';

/** The worker side of `link`, on this thread, let go when the test ends. */
function connect(link: WorkerLink): WorkerBackupStats {
  const worker = connectBackupStats(link);
  onTestFinished(() => worker.close());
  return worker;
}

/** Stats on the harness's provider, shut down when the test ends. */
function statsOn(harness: Harness) {
  const stats = createBackupStats({ meterProvider: harness.provider });
  onTestFinished(() => stats.shutdown());
  return stats;
}

describe('the slots of a worker', () => {
  it('past maxScopes, each family records into its overflow series; a scope asked again keeps its slot', async ({
    harness,
  }) => {
    const worker = connect(statsOn(harness).workerLink({ maxScopes: 5 }));
    for (let i = 0; i < 6; i++) {
      for (let n = 0; n <= i; n++) worker.backup.scope({ operation: `op-${i}` }).timedIncrementBytes(10, 1);
    }
    worker.restore.scope({ component: 'C' }).scope({ operation: 'R' }).timedIncrement(2);
    worker.restore.timedIncrement(3);
    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.operations{-,-,op-0}')).toBe(1);
    expect(values.get('backup.operations{-,-,op-1}')).toBe(2);
    expect(values.get('backup.operations{-,-,op-2}')).toBe(3);
    expect(values.get('backup.operations{-,-,op-3}')).toBeUndefined();
    expect(values.get('backup.operations{overflow}')).toBe(4 + 5 + 6);
    expect(values.get('backup.bytes{overflow}')).toBe(150);
    expect(values.get('restore.operations{C,-,R}')).toBe(1);
    expect(values.get('restore.time{C,-,R}')).toBeCloseTo(0.002, 12);
    expect(values.get('restore.operations{-,-,-}')).toBe(1);
    expect(values.get('restore.operations{overflow}')).toBeUndefined();
  });

  it('slots published after a read are read at the next one, each in the series of its own labels', async ({
    harness,
  }) => {
    const worker = connect(statsOn(harness).workerLink());
    expect(valuesByKey(await harness.collect()).get('backup.operations{-,-,a}')).toBeUndefined();
    worker.backup.scope({ operation: 'a' }).timedIncrement(1);
    expect(valuesByKey(await harness.collect()).get('backup.operations{-,-,a}')).toBe(1);
    worker.backup.scope({ operation: 'b' }).timedIncrement(1);
    worker.backup.scope({ operation: 'c' }).timedIncrement(1);
    worker.backup.scope({ operation: 'c' }).timedIncrement(1);
    worker.restore.scope({ operation: 'd' }).timedIncrement(1);
    const values = valuesByKey(await harness.collect());
    expect([values.get('backup.operations{-,-,a}'), values.get('backup.operations{-,-,b}')]).toEqual([1, 1]);
    expect([values.get('backup.operations{-,-,c}'), values.get('restore.operations{-,-,d}')]).toEqual([2, 1]);
    expect(values.get('backup.operations{overflow}')).toBeUndefined();
  });

  it("a worker taking a place over finds its slots: the root's, its labels', both families'", async ({ harness }) => {
    const link = statsOn(harness).workerLink({ workers: 1, maxScopes: 4 });
    const first = connect(link);
    first.backup.timedIncrement(1);
    first.backup.scope({ implementation: 'I' }).timedIncrement(1);
    first.restore.scope({ operation: 'R' }).timedIncrement(1);
    first.restore.timedIncrement(-1);
    first.close();
    // The next worker scopes in another order: a new combination first, then the first worker's.
    const next = connect(link);
    next.backup.scope({ implementation: 'J' }).timedIncrement(1);
    next.backup.timedIncrement(1);
    next.backup.scope({ implementation: 'I' }).timedIncrement(1);
    next.restore.scope({ operation: 'R' }).timedIncrement(1);
    next.restore.timedIncrement(1);
    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.operations{-,-,-}')).toBe(2);
    expect(values.get('backup.operations{-,I,-}')).toBe(2);
    expect(values.get('backup.operations{-,J,-}')).toBe(1);
    expect(values.get('restore.operations{-,-,R}')).toBe(2);
    expect(values.get('restore.operations{-,-,-}')).toBe(1);
    expect(values.get('backup.operations{overflow}')).toBeUndefined();
    expect(values.get('restore.operations{overflow}')).toBeUndefined();
    expect(values.get('backupstats.invalid_measurements{restore}')).toBe(1);
  });
});

describe('the label heap', () => {
  const full = (c: string): { component: string; implementation: string; operation: string } => ({
    component: c.repeat(256),
    implementation: c.repeat(256),
    operation: c.repeat(256),
  });
  // maxScopes 4: 4 × 4 × 256 = 4096 bytes of labels for the four families, 13 of them taken by each root's
  // ["-","-","-"]: 4044 are left. An operation of n ASCII characters takes 12 + n bytes. The verify and prune
  // scopes below take 2022 of them, so that the heap fills with slots left in every family.
  const fillVerifyAndPrune = (worker: WorkerBackupStats): void => {
    worker.verify.scope(full('p')).timedIncrement(1); // 778 bytes
    worker.prune.scope(full('q')).timedIncrement(1); // 778
    worker.prune.scope({ component: 'q'.repeat(256), operation: 'q'.repeat(199) }).timedIncrement(1); // 466
  };
  it('labels that no longer fit go to the overflow series even with slots left; shorter ones still fit', async ({
    harness,
  }) => {
    // 2022 bytes left once the verify and prune scopes took theirs. Every value is within the 256 characters a label
    // value may have: it takes several to fill the heap.
    const worker = connect(statsOn(harness).workerLink({ maxScopes: 4 }));
    fillVerifyAndPrune(worker);
    const rest = { component: 'z'.repeat(256), operation: 'z'.repeat(199) };
    worker.backup.scope(full('x')).timedIncrement(1); // 778 bytes: 1244 left
    worker.restore.scope(full('v')).timedIncrement(1); // 778: 466 left
    worker.backup.scope(full('y')).timedIncrement(1); // 778: overflow, with a backup slot left
    worker.backup.scope(rest).timedIncrement(1); // 466: fits exactly
    worker.restore.scope({ operation: 'w' }).timedIncrement(1); // 13: overflow, with a restore slot left
    const values = valuesByKey(await harness.collect());
    const key = (family: string, l: { component: string; implementation?: string; operation: string }): string =>
      `${family}.operations{${l.component},${l.implementation ?? '-'},${l.operation}}`;
    expect(values.get(key('backup', full('x')))).toBe(1);
    expect(values.get(key('restore', full('v')))).toBe(1);
    expect(values.get(key('backup', full('y')))).toBeUndefined();
    expect(values.get(key('backup', rest))).toBe(1);
    expect(values.get('backup.operations{overflow}')).toBe(1);
    expect(values.get('restore.operations{-,-,w}')).toBeUndefined();
    expect(values.get('restore.operations{overflow}')).toBe(1);
    expect(values.get(key('verify', full('p')))).toBe(1);
    expect(values.get(key('prune', full('q')))).toBe(1);
  });

  it('counts bytes, not characters: labels of many-byte characters come back whole or go to the overflow', async ({
    harness,
  }) => {
    const worker = connect(statsOn(harness).workerLink({ maxScopes: 4 }));
    fillVerifyAndPrune(worker);
    const wide = 'é'.repeat(256); // three of them: 10 + 1536 bytes of the 2022 left, 476 left
    const cut = 'ü'.repeat(240); // 252 characters, 492 bytes: does not fit, and takes nothing
    const last = { component: 'a'.repeat(256), operation: 'a'.repeat(209) }; // 476 bytes: fits in what is left
    worker.backup.scope({ component: wide, implementation: wide, operation: wide }).timedIncrement(1);
    worker.backup.scope({ operation: cut }).timedIncrement(1);
    worker.restore.scope(last).timedIncrement(1);
    const values = valuesByKey(await harness.collect());
    expect(values.get(`backup.operations{${wide},${wide},${wide}}`)).toBe(1);
    expect(values.get(`backup.operations{-,-,${cut}}`)).toBeUndefined();
    expect(values.get('backup.operations{overflow}')).toBe(1);
    expect(values.get(`restore.operations{${last.component},-,${last.operation}}`)).toBe(1);
  });
});

describe('histograms of new slots', () => {
  it('start empty: the first duration of a slot sets its min and max, in every family and slot', async () => {
    const { stats, collect } = statsWithHistograms();
    const worker = connect(stats.workerLink());
    for (const [i, ms] of [7, 0.5, 3].entries()) {
      worker.backup.scope({ operation: `s-${i}` }).timedIncrement(ms);
      worker.backup.scope({ operation: `s-${i}` }).timedIncrement(ms * 2);
    }
    const exported = await collect();
    expect(exported.histogram({ operation: 's-0' })).toMatchObject({ count: 2, min: 0.007, max: 0.014 });
    expect(exported.histogram({ operation: 's-1' })).toMatchObject({ count: 2, min: 0.0005, max: 0.001 });
    expect(exported.histogram({ operation: 's-2' })).toMatchObject({ count: 2, min: 0.003, max: 0.006 });
  });

  it("the overflow series' histogram too, from the worker's first scope past the bound", async () => {
    const { stats, harness } = statsWithHistograms();
    const worker = connect(stats.workerLink({ maxScopes: 2 }));
    worker.backup.scope({ operation: 'past' }).timedIncrement(3);
    worker.backup.scope({ operation: 'further' }).timedIncrement(5);
    const overflow = histograms(await harness.collect()).get('backup.operation.duration{otel.metric.overflow=true}');
    expect(overflow).toMatchObject({ count: 2, min: 0.003, max: 0.005 });
  });
});
