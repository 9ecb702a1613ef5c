// The reading side of a slot's sequence lock, in process (docs/workers.md, "Consistent histograms"): a worker makes
// the slot's sequence number odd, adds to the histogram's cells and makes it even. A record in progress in another
// thread at the moment of a read cannot be made to happen on purpose, so this test leaves the number odd itself, as
// a record still being written would: the read folds no histogram then, and takes it whole at a read once the number
// is even again. The counters are folded on their own, without the lock. The sequence number is found as the one word
// of the place that a first histogram record takes from 0 to 2 (the other cells it changes are doubles).
import type { WorkerLink } from 'backupstats';
import { connectBackupStats } from 'backupstats/worker';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { statsWithHistograms } from '../support/histogram-stats.js';

/** The place's memory of a one-place link (link/worker-link.ts's LinkData.memory). */
const words = (link: WorkerLink): Int32Array =>
  new Int32Array((link as unknown as { memory: SharedArrayBuffer }).memory);

describe('the sequence lock of a slot', () => {
  it('a read while the number is odd folds the counters but not the histogram; the next even read folds it whole', async () => {
    const { stats, collect } = statsWithHistograms();
    const link = stats.workerLink({ workers: 1, maxScopes: 2 });
    const worker = connectBackupStats(link);
    onTestFinished(() => worker.close());
    const place = words(link);
    const before = place.slice();
    worker.backup.timedIncrementBytes(3, 1);
    const seq = [...place.keys()].filter((i) => before[i] === 0 && place[i] === 2);
    expect(seq).toHaveLength(1);
    const at = seq[0] as number;
    expect((await collect()).histogram({})).toMatchObject({ count: 1, sum: 0.001 });

    worker.backup.timedIncrementBytes(3, 2);
    expect(place[at]).toBe(4);
    // A third record, as it would look half-way through: the number odd.
    place[at] = 5;
    for (let read = 0; read < 2; read++) {
      const exported = await collect();
      expect(exported.values.get('backup.operations{-,-,-}')).toBe(2);
      expect(exported.values.get('backup.bytes{-,-,-}')).toBe(6);
      expect(exported.histogram({})).toMatchObject({ count: 1, sum: 0.001, min: 0.001, max: 0.001 });
    }
    // The record written: the number even again.
    place[at] = 6;
    const exported = await collect();
    expect(exported.histogram({})).toMatchObject({ count: 2, min: 0.001, max: 0.002 });
    expect(exported.histogram({})?.sum).toBeCloseTo(0.003, 12);
  });
});
