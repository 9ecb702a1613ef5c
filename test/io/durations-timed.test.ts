// timeSync / timeAsync record the operation start to end; the stream meters read the clock no more than they
// must; the durations reach OpenTelemetry in each naming's unit.
// The clock is vitest's fake `performance` (test/support/fake-clock.ts): it moves only when a stage below "spends"
// time, so each expected duration is exact. Tolerance: 1e-9 ms (floating-point rounding of the clock's own sums).
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBackupStats, meterReadable, meterTransform, meterWritable, timeAsync, timeSync } from 'backupstats';
import { createRecordingStats } from 'backupstats/testing';
import { describe, expect, vi } from 'vitest';
import { expectDurations, spend, useFakeClock } from '../support/fake-clock.js';
import { it } from '../support/fixtures.js';
import { valuesByKey } from '../support/harness.js';

useFakeClock();

describe('timeSync and timeAsync: the operation, start to end', () => {
  it('timeSync: a returning and a throwing operation', () => {
    const stats = createRecordingStats();
    timeSync(stats, () => spend(25));
    expect(() =>
      timeSync(
        stats,
        () => {
          spend(4);
          throw new Error('close failed');
        },
        { recordFailures: true, bytes: 3 },
      ),
    ).toThrow('close failed');
    expectDurations(stats, [25, 4]);
  });

  it('timeAsync: up to the settling of the promise, resolved or rejected', async () => {
    const stats = createRecordingStats();
    const settleAfter = (ms: number, value: unknown, rejects = false): Promise<unknown> =>
      new Promise((resolve, reject) =>
        setImmediate(() => {
          spend(ms);
          if (rejects) reject(value);
          else resolve(value);
        }),
      );
    await timeAsync(stats, async () => {
      spend(3);
      return settleAfter(4, 'done');
    });
    await expect(
      timeAsync(stats, () => settleAfter(9, new Error('gone'), true), { recordFailures: true }),
    ).rejects.toThrow('gone');
    await expect(
      timeAsync(
        stats,
        () => {
          spend(1.5);
          throw new Error('sync');
        },
        { recordFailures: true },
      ),
    ).rejects.toThrow('sync');
    expectDurations(stats, [7, 9, 1.5]);
  });
});

describe('clock reads', () => {
  it('at most two per chunk for the readable and writable meters, none for an unrecorded transform flush', async () => {
    // The clock's cost is measured once per clock, by the first meter: done below, before the reads are counted.
    const now = vi.spyOn(performance, 'now');
    meterWritable(new Writable(), createRecordingStats());
    now.mockClear();
    const chunks = 20;
    const source = meterReadable(
      Readable.from(
        Array.from({ length: chunks }, () => Buffer.alloc(8)),
        { objectMode: false },
      ),
      createRecordingStats(),
    );
    const sink = meterWritable(new Writable({ write: (_c, _e, cb) => setImmediate(cb) }), createRecordingStats());
    await pipeline(source, sink);
    // Two per chunk and meter, one when the readable is wrapped, one for the read request that finds the end.
    expect(now.mock.calls.length).toBeLessThanOrEqual(4 * chunks + 2);

    now.mockClear();
    const stage = meterTransform(
      new Transform({ transform: (c, _e, cb) => cb(null, c), flush: (cb) => cb() }),
      createRecordingStats(),
    );
    await pipeline(Readable.from([Buffer.alloc(1)]), stage, new Writable({ write: (_c, _e, cb) => cb() }));
    // One chunk, two reads; the flush is not recorded, so it reads no clock.
    expect(now.mock.calls.length).toBe(2);
  });
});

/** The time series of the write and the close below, and their values, in each naming's unit. */
const EXPECTED = {
  otel: [
    ['backup.time{-,-,Destination:Write}', 0.0025],
    ['backup.time{-,-,Destination:Close}', 0.0005],
  ],
  vitess: [
    ['backup_duration_nanoseconds{-,-,Destination:Write}', 2_500_000],
    ['backup_duration_nanoseconds{-,-,Destination:Close}', 500_000],
  ],
} as const;

describe('what reaches OpenTelemetry', () => {
  it.for(['otel', 'vitess'] as const)(
    'the time counter carries the measured durations (%s naming)',
    async (naming, { harness }) => {
      const stats = createBackupStats({ meterProvider: harness.provider, naming });
      const sink = meterWritable(
        new Writable({
          write(_chunk, _encoding, callback) {
            spend(1.25);
            callback();
          },
        }),
        stats.backup.scope({ operation: 'Destination:Write' }),
      );
      await pipeline(Readable.from([Buffer.alloc(1), Buffer.alloc(1)]), sink);
      timeSync(stats.backup.scope({ operation: 'Destination:Close' }), () => spend(0.5));
      const values = valuesByKey(await harness.collect());
      for (const [key, value] of EXPECTED[naming]) expect(values.get(key), key).toBeCloseTo(value, 12);
      await stats.shutdown();
    },
  );
});
