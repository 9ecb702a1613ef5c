// createRecordingStats() is the test double of the real stats: for any sequence of records, what it keeps must be
// what the real stats export, invalid records included (dropped and counted, never summed).
import { createBackupStats } from 'backupstats';
import { createRecordingStats } from 'backupstats/testing';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { createHarness, valuesByKey } from '../support/harness.js';

/** Values a caller may pass, valid or not. */
const amount = fc.oneof(
  fc.nat({ max: 10_000 }),
  fc.double({ min: 0, max: 1000, noNaN: true }),
  fc.constantFrom(-5, -0.5, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 2, '5', null, undefined),
);
/** A sampled-timing weight: left out (1), 0 for an untimed operation, a block size, or not one. */
const weight = fc.oneof(fc.constant(undefined), fc.constantFrom(0, 1, 16, -1, Number.NaN), fc.nat({ max: 100 }));
const record = fc.oneof(
  fc.record({ method: fc.constant('timedIncrement' as const), durationMillis: amount, weight }),
  fc.record({ method: fc.constant('timedIncrementBytes' as const), bytes: amount, durationMillis: amount, weight }),
);

describe('createRecordingStats and the real stats', () => {
  it('agree on the example of the issue: 2 operations, 5 bytes, 5 ms, one invalid record', () => {
    const stats = createRecordingStats();
    stats.timedIncrementBytes(5, 2);
    stats.timedIncrementBytes(-5, 2);
    stats.timedIncrement(3);
    expect(stats.totals()).toEqual({ count: 2, bytes: 5, durationMillis: 5 });
    expect(stats.calls).toHaveLength(2);
    expect(stats.dropped).toEqual([
      {
        method: 'timedIncrementBytes',
        labels: { component: '-', implementation: '-', operation: '-' },
        bytes: -5,
        durationMillis: 2,
        weight: 1,
      },
    ]);
  });

  it('agree on the limit: exactly Number.MAX_SAFE_INTEGER bytes or milliseconds are kept, more are dropped', () => {
    // The real stats' side of it: test/validation/measurements.test.ts.
    const stats = createRecordingStats();
    stats.timedIncrementBytes(Number.MAX_SAFE_INTEGER, 0);
    stats.timedIncrement(Number.MAX_SAFE_INTEGER);
    stats.timedIncrement(Number.MAX_SAFE_INTEGER / 4, 4);
    stats.timedIncrementBytes(Number.MAX_SAFE_INTEGER + 2, 0);
    stats.timedIncrement(Number.MAX_SAFE_INTEGER, 2);
    expect(stats.calls.map((call) => [call.bytes, call.durationMillis, call.weight])).toEqual([
      [Number.MAX_SAFE_INTEGER, 0, 1],
      [0, Number.MAX_SAFE_INTEGER, 1],
      [0, Number.MAX_SAFE_INTEGER / 4, 4],
    ]);
    expect(stats.dropped.map((call) => [call.bytes, call.durationMillis, call.weight])).toEqual([
      [Number.MAX_SAFE_INTEGER + 2, 0, 1],
      [0, Number.MAX_SAFE_INTEGER, 2],
    ]);
  });

  it('agree on counts, bytes, time and invalid records for any sequence of records', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(record, { maxLength: 30 }), async (records) => {
        const harness = createHarness();
        const real = createBackupStats({ meterProvider: harness.provider });
        const double = createRecordingStats();
        for (const stats of [real.backup, double]) {
          for (const r of records) {
            const w = r.weight as number | undefined;
            if (r.method === 'timedIncrement') stats.timedIncrement(r.durationMillis as number, w);
            else stats.timedIncrementBytes(r.bytes as number, r.durationMillis as number, w);
          }
        }
        const values = valuesByKey(await harness.collect());
        await real.shutdown();
        await harness.shutdown();
        const totals = double.totals();
        expect(values.get('backup.operations{-,-,-}') ?? 0).toBe(totals.count);
        // The bytes counter is an integer one: the export is the whole part of the sum.
        expect(values.get('backup.bytes{-,-,-}') ?? 0).toBe(Math.trunc(totals.bytes));
        expect(values.get('backup.time{-,-,-}') ?? 0).toBeCloseTo(totals.durationMillis / 1000, 6);
        expect(values.get('backupstats.invalid_measurements{backup}') ?? 0).toBe(double.dropped.length);
      }),
      { numRuns: 150, seed: 23 },
    );
  });
});
