// Fixed sampled timing (`timeOneIn: N`): every operation is still counted with its bytes; in each block of N
// operations one, at a random place, is timed and recorded with its own duration and the weight N (the others
// record no time, weight 0, and read no clock). Pinned on the fake clock (test/support/fake-clock.ts); the random
// place is fixed where a test checks which operations are timed, and left random where it checks what holds
// whatever is drawn.
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { meterReadable, meterTransform, meterWritable } from 'backupstats';
import { createRecordingStats } from 'backupstats/testing';
import { describe, expect, it, vi } from 'vitest';
import { expectDurations, finished, spend, useFakeClock, waitingSource } from '../support/fake-clock.js';

const clock = useFakeClock();

/** Puts the timed operation of every block of `every` at `place` (0-based; places are ⌊random × N⌋). */
function fixPlace(place: number, every: number): void {
  vi.spyOn(Math, 'random').mockReturnValue((place + 0.5) / every);
}

/** The weight of every recorded call, in order. */
const weights = (stats: { calls: readonly { weight: number }[] }) => stats.calls.map((c) => c.weight);

/** A sink whose i-th write takes `costs[i]` ms and calls back asynchronously. */
function sink(costs: readonly number[]): Writable {
  let i = 0;
  return new Writable({
    highWaterMark: 1,
    write(_chunk, _encoding, callback) {
      spend(costs[i] as number);
      i += 1;
      setImmediate(callback);
    },
  });
}

/** Writes the chunks one after the other, each after the previous one's callback (no buffering). */
async function writeInTurn(stream: Writable, sizes: readonly number[]): Promise<void> {
  for (const size of sizes)
    await new Promise<void>((resolve, reject) =>
      stream.write(Buffer.alloc(size), (error) => (error ? reject(error) : resolve())),
    );
  stream.end();
  await finished(stream);
}

describe('timeOneIn on meterWritable', () => {
  it('times one write in each block of N and records it with the weight N; every write counted with its bytes', async () => {
    fixPlace(3, 4);
    const stats = createRecordingStats();
    const costs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const stream = meterWritable(sink(costs), stats, { timeOneIn: 4 });
    clock().mockClear();
    await writeInTurn(
      stream,
      costs.map((_, i) => i + 1),
    );
    expect(stats.calls.map((c) => c.bytes)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // Writes 4 and 8 are timed, each standing for its block of four; 9 and 10 are in a block whose timed write,
    // the twelfth, never comes: their expected share of the time is there all the same (see the random test).
    expectDurations(stats, [0, 0, 0, 4, 0, 0, 0, 8, 0, 0]);
    expect(weights(stats)).toEqual([0, 0, 0, 4, 0, 0, 0, 4, 0, 0]);
    expect(stats.totals().durationMillis).toBeCloseTo(4 * 4 + 8 * 4, 9);
    expect(clock()).toHaveBeenCalledTimes(4);
  });

  it.for([{ timeOneIn: 1 }, {}])(
    '%o times every write when the clock costs nothing next to them; no random number is drawn',
    async (options) => {
      const random = vi.spyOn(Math, 'random');
      const stats = createRecordingStats();
      await writeInTurn(meterWritable(sink([3, 5, 7]), stats, options), [1, 1, 1]);
      expectDurations(stats, [3, 5, 7]);
      expect(weights(stats)).toEqual([1, 1, 1]);
      expect(random).not.toHaveBeenCalled();
    },
  );

  it('a failed timed write records nothing; the untimed write before it keeps its count and bytes', async () => {
    fixPlace(1, 2);
    const stats = createRecordingStats();
    let i = 0;
    const stream = meterWritable(
      new Writable({
        write(_chunk, _encoding, callback) {
          i += 1;
          spend(i);
          setImmediate(() => callback(i === 2 ? new Error('disk full') : null));
        },
      }),
      stats,
      { timeOneIn: 2 },
    );
    const errored = new Promise((resolve) => stream.on('error', resolve));
    stream.write(Buffer.alloc(1), () => stream.write(Buffer.alloc(2)));
    await errored;
    expect(stats.calls.map((c) => c.bytes)).toEqual([1]);
    expectDurations(stats, [0]);
  });
  it('a failed untimed write records nothing and fails the stream with its error; the timed write before it keeps its count, bytes and duration', async () => {
    // The timed write of the first block of two is its first; the second, untimed, fails.
    fixPlace(0, 2);
    const stats = createRecordingStats();
    const failure = new Error('disk full');
    let i = 0;
    const stream = meterWritable(
      new Writable({
        write(_chunk, _encoding, callback) {
          i += 1;
          spend(i * 10);
          setImmediate(() => callback(i === 2 ? failure : null));
        },
      }),
      stats,
      { timeOneIn: 2 },
    );
    const errored = new Promise((resolve) => stream.on('error', resolve));
    const secondDone = new Promise((resolve) =>
      stream.write(Buffer.alloc(1), () => stream.write(Buffer.alloc(2), resolve)),
    );
    expect(await errored).toBe(failure);
    // Node hands the write's own callback the error too.
    expect(await secondDone).toBe(failure);
    expect(stats.calls.map((c) => c.bytes)).toEqual([1]);
    expectDurations(stats, [10]);
    expect(weights(stats)).toEqual([2]);
    expect(stream.destroyed).toBe(true);
  });
});

describe('timeOneIn on meterReadable and meterTransform', () => {
  it("meterReadable: the timed chunk's wait starts at the chunk before it; untimed chunks read no clock", async () => {
    fixPlace(1, 2);
    const stats = createRecordingStats();
    const waits = [1, 2, 4, 8, 16, 32, 64];
    const source = waitingSource(waits, (index) => index + 1);
    meterReadable(source, stats, { timeOneIn: 2 });
    clock().mockClear();
    let received = 0;
    for await (const chunk of source) received += (chunk as Buffer).length;
    expect(received).toBe(28);
    expect(stats.totals()).toMatchObject({ count: 7, bytes: 28 });
    // Chunks 2, 4 and 6 timed, each for its block of two; the wait of each starts at the chunk before it.
    expectDurations(stats, [0, 2, 0, 8, 0, 32, 0]);
    expect(weights(stats)).toEqual([0, 2, 0, 2, 0, 2, 0]);
    // At most one at metering, three per timed chunk (the chunk before it, the read request, its arrival), and two
    // for the block the stream ends in: none for an untimed chunk, which would make it at least 14.
    expect(clock().mock.calls.length).toBeLessThanOrEqual(1 + 3 * 3 + 2);
  });

  it('meterTransform: a failed untimed chunk records nothing and rejects the pipeline with its error; the chunks before it keep their records', async () => {
    fixPlace(0, 3);
    const stats = createRecordingStats();
    const failure = new Error('bad block');
    let i = 0;
    const stage = meterTransform(
      new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          i += 1;
          spend(i);
          setImmediate(() => callback(i === 3 ? failure : null, chunk));
        },
      }),
      stats,
      { timeOneIn: 3 },
    );
    await expect(
      pipeline(
        Readable.from([1, 2, 3, 4].map((n) => Buffer.alloc(n))),
        stage,
        new Writable({ write: (_c, _e, cb) => cb() }),
      ),
    ).rejects.toBe(failure);
    // Chunk 1 timed for its block of three, chunk 2 untimed, chunk 3 untimed and failed.
    expect(stats.calls.map((c) => c.bytes)).toEqual([1, 2]);
    expectDurations(stats, [1, 0]);
    expect(weights(stats)).toEqual([3, 0]);
  });

  it('meterTransform: one chunk in each block timed; the flush is always timed', async () => {
    fixPlace(1, 3);
    const chunks = createRecordingStats();
    const flush = createRecordingStats();
    let i = 0;
    const stage = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        i += 1;
        spend(i);
        setImmediate(() => callback(null, chunk));
      },
      flush(callback) {
        spend(50);
        callback();
      },
    });
    meterTransform(stage, chunks, { timeOneIn: 3, flush });
    const sizes = [5, 6, 7, 8, 9];
    await pipeline(
      Readable.from(sizes.map((n) => Buffer.alloc(n))),
      stage,
      new Writable({ write: (_c, _e, cb) => cb() }),
    );
    expect(chunks.calls.map((c) => c.bytes)).toEqual(sizes);
    expectDurations(chunks, [0, 2, 0, 0, 5]);
    expect(weights(chunks)).toEqual([0, 3, 0, 0, 3]);
    expectDurations(flush, [50]);
  });
});

describe('timeOneIn drawn at random', () => {
  it('every chunk counted; with equal durations the summed time is exact: one timed chunk per block of N', async () => {
    const every = 8;
    const n = 2000;
    const stats = {
      source: createRecordingStats(),
      transform: createRecordingStats(),
      destination: createRecordingStats(),
    };
    const source = meterReadable(Readable.from(Array.from({ length: n }, () => Buffer.alloc(3))), stats.source, {
      timeOneIn: every,
    });
    // Every chunk costs the transform and the destination exactly 1 ms, so a span of k chunks is k ms.
    const stage = meterTransform(
      new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          spend(1);
          callback(null, chunk);
        },
      }),
      stats.transform,
      { timeOneIn: every },
    );
    const destination = meterWritable(
      new Writable({
        write(_chunk, _encoding, callback) {
          spend(1);
          callback();
        },
      }),
      stats.destination,
      { timeOneIn: every },
    );
    await pipeline(source, stage, destination);
    for (const name of ['source', 'transform', 'destination'] as const) {
      expect(stats[name].totals(), name).toMatchObject({ count: n, bytes: 3 * n });
    }
    for (const name of ['transform', 'destination'] as const) {
      // n is a whole number of blocks: exactly one chunk in each is timed, and stands for the block's n / every ms.
      const timed = stats[name].calls.filter((c) => c.weight > 0);
      expect(timed, name).toHaveLength(n / every);
      expect(new Set(timed.map((c) => c.weight)), name).toEqual(new Set([every]));
      expect(stats[name].totals().durationMillis, name).toBeCloseTo(n, 6);
    }
  });

  it('a timeOneIn that is not an integer from 1 to 65536 is rejected when metering, with its name and value', () => {
    const stats = createRecordingStats();
    for (const bad of [0, -1, 1.5, 65_537, Number.NaN, '8' as unknown as number]) {
      expect(() => meterWritable(new Writable(), stats, { timeOneIn: bad })).toThrow(
        /meterWritable option timeOneIn is .*accepted: an integer from 1 to 65536/,
      );
    }
    expect(() => meterReadable(new Readable(), stats, { timeOneIn: 0 })).toThrow(
      /meterReadable option timeOneIn is 0;/,
    );
    expect(() => meterTransform(new Transform(), stats, { timeOneIn: 0 })).toThrow(
      /meterTransform option timeOneIn is 0;/,
    );
  });
});
