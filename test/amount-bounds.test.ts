// The bound on amounts is inclusive: bytes and milliseconds up to Number.MAX_SAFE_INTEGER are recorded, in
// both modes, for timedIncrement and timedIncrementBytes alike.
import { createBackupStats } from 'backupstats';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness, valuesByKey } from './support/harness.js';

let harness: Harness;
afterEach(() => harness.shutdown());

describe.each([1000, 0])('amounts of exactly Number.MAX_SAFE_INTEGER (flushIntervalMillis %i)', (flushIntervalMillis) => {
  it('are recorded, not dropped', async () => {
    harness = createHarness();
    const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis });
    const max = Number.MAX_SAFE_INTEGER;
    stats.backup.scope({ operation: 'timed' }).timedIncrement(max);
    stats.backup.scope({ operation: 'moved' }).timedIncrementBytes(max, max);
    const values = valuesByKey(await harness.collect());
    expect(values.get('backupstats.invalid_measurements{backup}')).toBe(0);
    expect(values.get('backup.operations{-,-,timed}')).toBe(1);
    expect(values.get('backup.time{-,-,timed}')).toBe(max / 1000);
    expect(values.get('backup.operations{-,-,moved}')).toBe(1);
    expect(values.get('backup.bytes{-,-,moved}')).toBe(max);
    expect(values.get('backup.time{-,-,moved}')).toBe(max / 1000);
    await stats.shutdown();
  });
});
