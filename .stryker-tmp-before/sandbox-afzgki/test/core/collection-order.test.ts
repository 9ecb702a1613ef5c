// @ts-nocheck
// Pins the SDK behaviour the design relies on: observable callbacks run before the synchronous counters of
// the same Meter are collected, so a collection drains pending measurements and never exports stale totals.
import { createBackupStats } from 'backupstats';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { valuesByKey } from '../support/harness.js';

describe('every collection exports everything recorded before it', () => {
  it('with no explicit flush and the timer far from firing', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis: 2 ** 31 - 1 });
    const handle = stats.backup.scope({ operation: 'Source:Read' });
    handle.timedIncrementBytes(100, 1);

    let values = valuesByKey(await harness.collect());
    expect(values.get('backup.operations{-,-,Source:Read}')).toBe(1);
    expect(values.get('backup.bytes{-,-,Source:Read}')).toBe(100);

    // Records between two collections are in the second one, on a handle that was already flushed once.
    handle.timedIncrementBytes(23, 1);
    stats.restore.scope({ operation: 'Restore' }).timedIncrement(2000);
    values = valuesByKey(await harness.collect());
    expect(values.get('backup.operations{-,-,Source:Read}')).toBe(2);
    expect(values.get('backup.bytes{-,-,Source:Read}')).toBe(123);
    expect(values.get('restore.time{-,-,Restore}')).toBe(2);
    await stats.shutdown();
  });
});
