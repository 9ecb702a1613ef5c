// A worker records as the main thread does: the same records made on the main thread of one stats instance and
// through a link of another give the same export, counters and histograms alike; split between a series' main
// thread and its workers, with collections between them, they give what the main thread alone gives. The durations
// are sums of powers of two, so that every sum is exact whatever order it is added in.

import type { Stats } from 'backupstats';
import { connectBackupStats } from 'backupstats/worker';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { histograms, valuesByKey } from '../support/harness.js';
import { statsWithHistograms } from '../support/histogram-stats.js';

type Record = (stats: Stats) => void;
type Stats2 = ReturnType<typeof statsWithHistograms>;

const bad: unknown[] = [-1, Number.NaN, Number.POSITIVE_INFINITY, '5', undefined, null, 1n];

/** One record per bad value, made by `record`. */
const eachBad = (record: (stats: Stats, value: number) => void): Record[] =>
  bad.map((value) => (stats) => record(stats, value as number));

/** Records of every kind on a few series: valid, of weight 0 and fractional weights, invalid, past the bound. */
const RECORDS: Record[] = [
  (s) => s.timedIncrement(0),
  (s) => s.timedIncrement(0.5, 3),
  (s) => s.timedIncrement(4, 0),
  (s) => s.scope({ operation: 'Read' }).timedIncrementBytes(1024, 2.25),
  (s) => s.scope({ operation: 'Read' }).timedIncrementBytes(0, 0.125, 0.5),
  (s) => s.scope({ operation: 'Read' }).timedIncrementBytes(1, 1e-6),
  (s) => s.scope({ operation: 'Read' }).timedIncrementBytes(3, 3_600_000),
  (s) => s.scope({ component: 'C' }).scope({ operation: 'Write' }).timedIncrement(1000),
  (s) => s.scope({ component: 'C' }).scope({ operation: 'Write' }).timedIncrement(2.5),
  ...eachBad((s, value) => s.scope({ operation: 'Bad' }).timedIncrementBytes(value, 1)),
  ...eachBad((s, value) => s.scope({ operation: 'Bad' }).timedIncrementBytes(1, value)),
  ...eachBad((s, value) => s.scope({ operation: 'Bad' }).timedIncrement(1, value)),
  ...eachBad((s, value) => s.timedIncrement(value)),
  // After the weight-0 record above, one that is folded: the weight-0 duration must not be its max.
  (s) => s.timedIncrement(1),
];

/** Stats with histograms and, for the second, a worker connected to them on this thread. */
function pair(aggregation: 'explicit' | 'exponential') {
  const main = statsWithHistograms({}, aggregation);
  const linked = statsWithHistograms({}, aggregation);
  const worker = connectBackupStats(linked.stats.workerLink());
  onTestFinished(() => worker.close());
  return { main, linked, worker };
}

/** Collects both and expects the same export: every counter, and every histogram of both families. */
async function expectSame(actual: Stats2, expected: Stats2): Promise<void> {
  const [a, e] = [await actual.harness.collect(), await expected.harness.collect()];
  // Counters to the last bits: the main thread's time counter adds each record's seconds, the reader a sum of them.
  const close = [...valuesByKey(e)].map(([key, value]) => [key, expect.closeTo(value, 12)]);
  expect(Object.fromEntries(valuesByKey(a))).toEqual(Object.fromEntries(close));
  expect(histograms(a)).toEqual(histograms(e));
}

describe('a worker records as the main thread does', () => {
  for (const aggregation of ['explicit', 'exponential'] as const) {
    it(`every kind of record gives the same counters and ${aggregation} histograms, in every family`, async () => {
      const { main, linked, worker } = pair(aggregation);
      for (const record of RECORDS) {
        for (const family of ['backup', 'restore', 'verify', 'prune'] as const) {
          record(main.stats[family]);
          record(worker[family]);
        }
      }
      const expected = await main.collect();
      // Every bad value is refused.
      for (const family of ['backup', 'restore', 'verify', 'prune'])
        expect(expected.values.get(`backupstats.invalid_measurements{${family}}`)).toBe(bad.length * 4);
      expect(histograms(await main.harness.collect()).size).toBe(16);
      await expectSame(linked, main);
    });

    it(`records split between a series' main thread and its worker across collections fold into one ${aggregation} histogram`, async () => {
      const { main, linked, worker } = pair(aggregation);
      // Rounds of [main thread, worker] durations of one series: each round's smallest and largest fall on
      // either side, or on both, or on none.
      const rounds: [number[], number[]][] = [
        [[4], [2, 16]],
        [[1, 128], [8]],
        [[], [0.25, 64]],
        [[32, 0.125], []],
        [[0], [0, 0.5]],
        [[], []],
        [[2], [2]],
      ];
      const read = { operation: 'Read' };
      for (const [own, theirs] of rounds) {
        for (const ms of [...own, ...theirs]) main.stats.backup.scope(read).timedIncrementBytes(ms * 2, ms);
        for (const ms of own) linked.stats.backup.scope(read).timedIncrementBytes(ms * 2, ms);
        for (const ms of theirs) worker.backup.scope(read).timedIncrementBytes(ms * 2, ms);
        for (const ms of theirs) worker.restore.timedIncrement(ms, 2);
        for (const ms of theirs) main.stats.restore.timedIncrement(ms, 2);
        await expectSame(linked, main);
      }
      expect(histograms(await main.harness.collect()).size).toBe(2);
      expect((await linked.collect()).histogram(read)).toMatchObject({ count: 15, min: 0, max: 0.128 });
    });
  }

  it("refuses a record that would carry a series' sum since the last read past 2^53 - 1", async () => {
    const { linked, worker } = pair('explicit');
    const big = worker.backup.scope({ operation: 'Big' });
    big.timedIncrementBytes(Number.MAX_SAFE_INTEGER - 1, 1);
    big.timedIncrementBytes(1, 1);
    big.timedIncrementBytes(1, 1);
    const long = worker.restore.scope({ operation: 'Long' });
    long.timedIncrement(2 ** 52, 2);
    long.timedIncrement(Number.MAX_SAFE_INTEGER - 1);
    long.timedIncrement(1);
    long.timedIncrement(1);
    const { values } = await linked.collect();
    expect(values.get('backup.bytes{-,-,Big}')).toBe(Number.MAX_SAFE_INTEGER);
    expect(values.get('backup.operations{-,-,Big}')).toBe(2);
    expect(values.get('restore.operations{-,-,Long}')).toBe(2);
    expect(values.get('backupstats.invalid_measurements{backup}')).toBe(1);
    expect(values.get('backupstats.invalid_measurements{restore}')).toBe(2);
  });

  it('bounds sums per read as the main thread bounds them per flush: the same records and reads give the same export', async () => {
    const { main, linked, worker } = pair('explicit');
    const half = 2 ** 52;
    const bothSides = (record: (stats: Stats) => void): void => {
      record(main.stats.backup);
      record(worker.backup);
    };
    const flushBoth = (): void => {
      main.stats.flush();
      linked.stats.flush();
    };
    // Halves of 2^53 with a flush (a read) after each: each within the bound of its interval, and later records
    // still taken, after a sum of 2^54 + 100 over the series' life (a worker's slot rebases three times).
    for (let round = 0; round < 4; round++) {
      bothSides((s) => s.scope({ operation: 'Big' }).timedIncrementBytes(half, 1));
      bothSides((s) => s.scope({ operation: 'Long' }).timedIncrement(half));
      bothSides((s) => s.scope({ operation: 'Unread' }).timedIncrementBytes(0, 0));
      flushBoth();
    }
    for (let i = 0; i < 100; i++) bothSides((s) => s.scope({ operation: 'Big' }).timedIncrementBytes(1, 1));
    bothSides((s) => s.scope({ operation: 'Long' }).timedIncrement(2));
    // Two halves without a read between: the second passes the bound on both sides. (The series is opened first:
    // a new series' first record goes to the instruments at once.)
    bothSides((s) => s.scope({ operation: 'Unread' }).timedIncrementBytes(half, 1));
    bothSides((s) => s.scope({ operation: 'Unread' }).timedIncrementBytes(half, 1));
    bothSides((s) => s.scope({ operation: 'Unread' }).timedIncrementBytes(half - 1, 1));
    const expected = await main.collect();
    expect(expected.values.get('backup.operations{-,-,Big}')).toBe(104);
    expect(expected.values.get('backup.bytes{-,-,Big}')).toBe(2 ** 54 + 100);
    expect(expected.values.get('backup.operations{-,-,Long}')).toBe(5);
    expect(expected.values.get('backup.operations{-,-,Unread}')).toBe(6);
    expect(expected.values.get('backupstats.invalid_measurements{backup}')).toBe(1);
    await expectSame(linked, main);
  });

  it("counts each family's invalid measurements once, whichever collection reads them", async () => {
    const { main, linked, worker } = pair('explicit');
    for (const round of [1, 2, 0, 3]) {
      for (let i = 0; i < round; i++) {
        worker.restore.timedIncrement(-1);
        main.stats.restore.timedIncrement(-1);
        linked.stats.backup.timedIncrement(-1);
        main.stats.backup.timedIncrement(-1);
      }
      await expectSame(linked, main);
    }
    expect((await linked.collect()).values.get('backupstats.invalid_measurements{restore}')).toBe(6);
  });

  it('says what the main thread says of bad records and labels, once each', ({ diagnostics }) => {
    const { main, worker } = pair('explicit');
    const mistakes = (stats: Stats): void => {
      for (let i = 0; i < 2; i++) {
        stats.scope({ bogus: 'x' } as never).timedIncrement(-1);
        stats.scope({ operation: 7 } as never).timedIncrement(1, Number.NaN);
      }
    };
    mistakes(main.stats.backup);
    const said = [...diagnostics.messages];
    expect(said).toHaveLength(3);
    mistakes(worker.backup);
    mistakes(worker.restore);
    expect(diagnostics.messages).toEqual([...said, ...said]);
  });
});
