// A duration of -0 ms is a valid amount (it is `>= 0`), and a histogram keeps the first of 0 and -0 it met as its
// min and max, as the main thread's LocalHistogram does: a worker's slot does the same, and so does the main thread
// when it folds a worker's slot into a series that has numbers of its own. The export tells -0 from 0 (the point's
// min and max are the milliseconds divided by 1000), and so does toEqual.
import { connectBackupStats } from 'backupstats/worker';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { histograms } from '../support/harness.js';
import { statsWithHistograms } from '../support/histogram-stats.js';

describe('0 and -0 ms in a worker', () => {
  it('the first of them met stays the min and the max, in a slot and in a fold, as on the main thread', async () => {
    const main = statsWithHistograms();
    const linked = statsWithHistograms();
    const worker = connectBackupStats(linked.stats.workerLink());
    onTestFinished(() => worker.close());
    const [a, b, c, d] = [{ operation: 'A' }, { operation: 'B' }, { operation: 'C' }, { operation: 'D' }];
    // A and B in the worker alone; C and D on the main thread first, then in the worker.
    for (const [labels, first, then] of [
      [a, 0, -0],
      [b, -0, 0],
    ] as const) {
      for (const ms of [first, then]) {
        main.stats.backup.scope(labels).timedIncrement(ms);
        worker.backup.scope(labels).timedIncrement(ms);
      }
    }
    for (const [labels, first, then] of [
      [c, 0, -0],
      [d, -0, 0],
    ] as const) {
      main.stats.backup.scope(labels).timedIncrement(first);
      main.stats.backup.scope(labels).timedIncrement(then);
      linked.stats.backup.scope(labels).timedIncrement(first);
      worker.backup.scope(labels).timedIncrement(then);
    }
    const exported = await linked.collect();
    for (const [labels, zero] of [
      [a, 0],
      [b, -0],
      [c, 0],
      [d, -0],
    ] as const) {
      const point = exported.histogram(labels);
      expect(point?.count).toBe(2);
      expect(Object.is(point?.min, zero) && Object.is(point?.max, zero)).toBe(true);
    }
    expect(histograms(await linked.harness.collect())).toEqual(histograms(await main.harness.collect()));
  });
});
