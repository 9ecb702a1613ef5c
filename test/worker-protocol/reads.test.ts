// What one read of a place adds to the main thread's series, in process: only what the worker's numbers gained since
// the last read. A slot that gained nothing adds nothing, not even a zero, so a series a worker scoped but never
// recorded into is exported no more than the main thread's own would be.
import { createBackupStats } from 'backupstats';
import { connectBackupStats } from 'backupstats/worker';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { valuesByKey } from '../support/harness.js';

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
});
