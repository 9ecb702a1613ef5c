// Local aggregation, the reason the library exists: records on a handle touch only its own numbers, and a
// flush makes one `add` per instrument per handle recorded on since the last flush, however many records.
// The provider below counts every `add` call on the way to a real SDK MeterProvider.
import { createBackupStats } from 'backupstats';
import { describe, expect } from 'vitest';
import { type CountingProvider, createCountingProvider } from '../support/counting-provider.js';
import { it } from '../support/fixtures.js';
import { type Harness, valuesByKey } from '../support/harness.js';

/** The far end of setInterval's range: the timer never fires during a test. */
const NEVER = 2 ** 31 - 1;

function setUp(
  harness: Harness,
  flushIntervalMillis: number,
): { counting: CountingProvider; stats: ReturnType<typeof createBackupStats> } {
  const counting = createCountingProvider(harness.provider);
  return { counting, stats: createBackupStats({ meterProvider: counting.provider, flushIntervalMillis }) };
}

/** `add` calls per instrument name. */
function addsPerInstrument(counting: CountingProvider): Record<string, number> {
  const out: Record<string, number> = {};
  for (const add of counting.adds) out[add.instrument] = (out[add.instrument] ?? 0) + 1;
  return out;
}

describe('local aggregation', () => {
  it("a series' first record goes to the instruments (its start); the next N make no add until a flush, then one add per instrument", async ({
    harness,
  }) => {
    const { counting, stats } = setUp(harness, NEVER);
    const handle = stats.backup.scope({ component: 'BackupStorage', implementation: 'File', operation: 'File:Write' });
    const attributes = { component: 'BackupStorage', implementation: 'File', operation: 'File:Write' };
    handle.timedIncrementBytes(64, 0.5);
    expect(counting.adds).toEqual([
      { instrument: 'backup.operations', value: 1, attributes },
      { instrument: 'backup.bytes', value: 64, attributes },
      { instrument: 'backup.time', value: 0.0005, attributes },
    ]);
    counting.clearAdds();
    for (let i = 1; i < 10_000; i++) handle.timedIncrementBytes(64, 0.5);
    expect(counting.adds).toEqual([]);

    stats.flush();
    expect(counting.adds).toEqual([
      { instrument: 'backup.operations', value: 9_999, attributes },
      { instrument: 'backup.bytes', value: 639_936, attributes },
      { instrument: 'backup.time', value: 4.9995, attributes },
    ]);
    // A flush with nothing pending adds nothing.
    stats.flush();
    expect(counting.adds).toHaveLength(3);
    await stats.shutdown();
  });

  it('the pending set does not grow with records: each flush adds once per instrument per handle recorded on', async ({
    harness,
  }) => {
    const { counting, stats } = setUp(harness, NEVER);
    const read = stats.backup.scope({ operation: 'Source:Read' });
    const close = stats.backup.scope({ operation: 'Source:Close' });
    const restore = stats.restore.scope({ operation: 'Restore' });
    // Their first records went to the instruments at once (their start); the flushes below add the rest.
    read.timedIncrement(0, 0);
    close.timedIncrement(0, 0);
    restore.timedIncrement(0, 0);
    stats.flush();
    let recorded = 1;
    for (const records of [1, 10, 1000, 10_000]) {
      counting.clearAdds();
      for (let i = 0; i < records; i++) {
        read.timedIncrementBytes(1, 0.001);
        close.timedIncrement(0.001);
      }
      recorded += records;
      stats.flush();
      // Three instruments for the reads, two for the closes (no bytes): whatever the number of records.
      expect(addsPerInstrument(counting), `${records} records`).toEqual({
        'backup.operations': 2,
        'backup.bytes': 1,
        'backup.time': 2,
      });
    }
    // A handle flushed once and recorded on again is flushed again, once; the others are left alone.
    restore.timedIncrement(1);
    restore.timedIncrement(1);
    counting.clearAdds();
    stats.flush();
    expect(counting.adds.map((a) => [a.instrument, a.value])).toEqual([
      ['restore.operations', 2],
      ['restore.time', 0.002],
    ]);

    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.operations{-,-,Source:Read}')).toBe(recorded);
    // The first operation moved no byte.
    expect(values.get('backup.bytes{-,-,Source:Read}')).toBe(recorded - 1);
    expect(values.get('backup.operations{-,-,Source:Close}')).toBe(recorded);
    await stats.shutdown();
  });

  it('flushIntervalMillis 0 adds every record to the instruments at once, with no flush', async ({ harness }) => {
    const { counting, stats } = setUp(harness, 0);
    const handle = stats.backup.scope({ operation: 'Destination:Write' });
    handle.timedIncrementBytes(100, 2);
    handle.timedIncrementBytes(0, 4);
    handle.timedIncrement(8);
    const attributes = { component: '-', implementation: '-', operation: 'Destination:Write' };
    expect(counting.adds).toEqual([
      { instrument: 'backup.operations', value: 1, attributes },
      { instrument: 'backup.bytes', value: 100, attributes },
      { instrument: 'backup.time', value: 0.002, attributes },
      // No bytes moved: nothing added to the bytes counter.
      { instrument: 'backup.operations', value: 1, attributes },
      { instrument: 'backup.time', value: 0.004, attributes },
      { instrument: 'backup.operations', value: 1, attributes },
      { instrument: 'backup.time', value: 0.008, attributes },
    ]);
    stats.flush();
    expect(counting.adds).toHaveLength(7);
    await stats.shutdown();
  });

  it('runs: the first run creates every run series at 0, and each end adds only the series it ended in', async ({
    harness,
  }) => {
    const { counting, stats } = setUp(harness, NEVER);
    const handle = stats.backup.scope({ operation: 'Backup' });
    handle.startRun().succeed();
    stats.flush();
    // One series for successes, one per failure reason (7), one per partial reason (7): every one of them exists at 0
    // from the first run's start, and the run is added when it ends (so that the points start where the runs do).
    const runAdds = (): number[] => counting.adds.filter((a) => a.instrument === 'backup.runs').map((a) => a.value);
    expect(runAdds()).toEqual([...new Array(15).fill(0), 1]);

    counting.clearAdds();
    handle.startRun().succeed();
    handle.startRun().succeed();
    handle.startRun().fail();
    stats.flush();
    expect(runAdds()).toEqual([1, 1, 1]);
    counting.clearAdds();
    stats.flush();
    expect(runAdds()).toEqual([]);
    await stats.shutdown();
  });
});
