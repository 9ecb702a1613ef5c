// Timing by budget measures what a read of the clock costs: once per clock, when its first stream is metered, then
// refined by a few back-to-back reads on the hot path (the first measurement runs cold, before the JIT compiler has
// warmed up, and reads high). What it costs, and what it finds, are checked on a clock that moves only when read or
// spent, with the timed operation of every block placed first, so that the block sizes it chooses are known.
import { Writable } from 'node:stream';
import { meterWritable } from 'backupstats';
import { createRecordingStats, type RecordingStats } from 'backupstats/testing';
import { describe, expect, it, onTestFinished, vi } from 'vitest';

/** The hot cost of one read, ms: operations of 100 times two reads (0.01 ms) or more are always timed. */
const READ = 0.00005;
/** Reads of the first measurement: 5 batches of 32 reads between a start and an end. */
const MEASUREMENT_READS = 5 * 34;
/** Back-to-back pairs of reads that refine it, one pair after each timed operation. */
const REFINEMENTS = 64;

/**
 * Replaces `performance` with a new clock (a clock's cost is measured once per clock object) whose read number `i`
 * (from 0) costs `costOf(i)` ms, and fixes the timed operation of every block first.
 */
function clockOf(costOf: (read: number) => number): { reads: () => number; spend: (ms: number) => void } {
  let now = 1_000_000;
  let reads = 0;
  vi.stubGlobal('performance', {
    now: () => {
      const read = now;
      now += costOf(reads);
      reads += 1;
      return read;
    },
  });
  vi.spyOn(Math, 'random').mockReturnValue(0);
  onTestFinished(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
  return { reads: () => reads, spend: (ms) => (now += ms) };
}

/** A sink metered by budget whose writes call back at once; `write(ms)` makes one write that takes `ms`. */
function meteredSink(clock: { spend: (ms: number) => void }): { stats: RecordingStats; write: (ms: number) => void } {
  const stats = createRecordingStats();
  let cost = 0;
  const sink = meterWritable(
    new Writable({
      write(_chunk, _encoding, callback) {
        clock.spend(cost);
        callback();
      },
    }),
    stats,
  );
  return {
    stats,
    write: (ms) => {
      cost = ms;
      sink.write(Buffer.alloc(1));
    },
  };
}

const weights = (stats: RecordingStats) => stats.calls.map((c) => c.weight);

describe("the clock's cost under timing by budget", () => {
  it('is measured once per clock, when its first stream is metered: a fixed timeOneIn measures nothing', () => {
    const clock = clockOf(() => READ);
    meterWritable(new Writable(), createRecordingStats(), { timeOneIn: 4 });
    meterWritable(new Writable(), createRecordingStats(), { timeOneIn: 1 });
    expect(clock.reads()).toBe(0);
    meterWritable(new Writable(), createRecordingStats());
    expect(clock.reads()).toBe(MEASUREMENT_READS);
    meterWritable(new Writable(), createRecordingStats());
    expect(clock.reads()).toBe(MEASUREMENT_READS);
  });

  it('is refined by one pair of reads after each of the first 64 timed operations, and then costs no read', () => {
    const clock = clockOf(() => READ);
    const { stats, write } = meteredSink(clock);
    const before = clock.reads();
    for (let i = 0; i < 100; i++) write(0.02);
    expect(weights(stats)).toEqual(Array.from({ length: 100 }, () => 1));
    expect(clock.reads() - before).toBe(100 * 2 + REFINEMENTS * 2);
  });

  it('a first measurement that reads high is brought down on the hot path', () => {
    // The first measurement's reads cost three times the hot cost, as they do before the JIT compiler warms up.
    const clock = clockOf((read) => (read < MEASUREMENT_READS ? 3 * READ : READ));
    const { stats, write } = meteredSink(clock);
    // 0.02 ms is short next to the cold cost (100 times two reads is 0.03 ms) and long next to the hot one (0.01 ms).
    for (let i = 0; i < 6; i++) write(0.02);
    expect(weights(stats)).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('keeps the cheapest read: a slow pair of reads on the hot path does not raise it', () => {
    // After the first measurement and the first timed write's two reads, every read costs three times as much.
    const clock = clockOf((read) => (read < MEASUREMENT_READS + 2 ? READ : 3 * READ));
    const { stats, write } = meteredSink(clock);
    // Just over 100 times two reads of the measured cost (0.01 ms), with the read that ends them: always timed.
    for (let i = 0; i < 6; i++) write(0.0102);
    expect(weights(stats)).toEqual([1, 1, 1, 1, 1, 1]);
  });
});

describe('the block size under timing by budget', () => {
  it('follows the mean duration of timed operations: the first sets it, each later one moves it 1/8 of the way', () => {
    const clock = clockOf(() => READ);
    const { stats, write } = meteredSink(clock);
    // Each write's duration is what it spends and the read that ends it.
    write(0.02 - READ);
    for (let i = 0; i < 11; i++) write(0.002 - READ);
    // The mean goes from 0.02 ms toward 0.002 ms, 1/8 of the way per write: 0.002 + 0.018 × (7/8)^k ms after
    // the k-th short write. It stays at 0.01 ms or more (every write timed) up to the sixth, and after the seventh
    // (0.00907 ms) a block is ceil(0.01 / 0.00907) = 2 writes: the ninth write stands for two.
    expect(weights(stats)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 2, 0, 2, 0]);
    expect(stats.calls.map((c) => c.durationMillis).slice(0, 9)).toEqual([
      expect.closeTo(0.02, 9),
      ...Array.from({ length: 8 }, () => expect.closeTo(0.002, 9)),
    ]);
  });
});
