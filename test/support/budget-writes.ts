// Writes through a metered sink on the costly clock (test/support/fake-clock.ts), for the tests of timing by budget:
// test/io/timing-budget.test.ts and test/property/timing-bias.test.ts.
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { meterWritable } from 'backupstats';
import { createRecordingStats, type RecordingStats } from 'backupstats/testing';
import type { CostlyClock } from './fake-clock.js';

/** What one read of the costly clock costs, in ms: 50 ns. */
export const READ_COST = 0.00005;

/** Writes one chunk per duration into a metered sink whose i-th write takes `durations[i]` ms. */
export async function writeAll(
  clock: CostlyClock,
  durations: readonly number[],
  timeOneIn?: number,
): Promise<RecordingStats> {
  const stats = createRecordingStats();
  let i = 0;
  const sink = new Writable({
    write(_chunk, _encoding, callback) {
      clock.spend(durations[i] as number);
      i += 1;
      callback();
    },
  });
  meterWritable(sink, stats, timeOneIn === undefined ? {} : { timeOneIn });
  await pipeline(
    Readable.from(
      durations.map(() => Buffer.alloc(1)),
      { objectMode: false },
    ),
    sink,
  );
  return stats;
}

/** Durations around `mean` ms, uniformly from half to one and a half of it, drawn from the seeded generator. */
export function around(mean: number, n: number): number[] {
  return Array.from({ length: n }, () => mean * (0.5 + Math.random()));
}
