// Every duration the wrappers and timeSync / timeAsync record is what their TSDoc says it measures. The
// clock is vitest's fake `performance`: it moves only when a stage below "spends" time, so each expected
// duration is exact. Tolerance: 1e-9 ms (floating-point rounding of the clock's own sums, nothing else).
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  createBackupStats,
  createRecordingStats,
  meterIterable,
  meterReadable,
  meterTransform,
  meterWritable,
  timeAsync,
  timeSync,
} from 'backupstats';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHarness, valuesByKey } from './support/harness.js';

/** Where the fake clock stands when a test begins: far from 0, so that adding a start time would show. */
const CLOCK_START = 1_000_000;
const DIGITS = 9;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['performance'] });
  vi.advanceTimersByTime(CLOCK_START);
});
afterEach(() => {
  vi.useRealTimers();
});

/** Moves the fake clock: the time the code calling it takes. */
const spend = (ms: number): void => {
  vi.advanceTimersByTime(ms);
};

function expectDurations(actual: readonly number[], expected: readonly number[]): void {
  expect(actual).toHaveLength(expected.length);
  for (const [i, duration] of actual.entries()) expect(duration, `duration ${i}`).toBeCloseTo(expected[i] as number, DIGITS);
}

const durations = (stats: ReturnType<typeof createRecordingStats>): number[] => stats.calls.map((c) => c.durationMs);

describe('meterReadable: the time the stream made its reader wait for each chunk', () => {
  it('from the read request to the chunk', async () => {
    const stats = createRecordingStats();
    const waits = [3, 5, 11.5];
    let produced = 0;
    const source = meterReadable(
      new Readable({
        read() {
          const wait = waits[produced];
          if (wait === undefined) {
            this.push(null);
            return;
          }
          produced += 1;
          // Asynchronous, as a file or socket is: the request returns before the chunk arrives.
          setImmediate(() => {
            spend(wait);
            this.push(Buffer.alloc(produced * 10));
          });
        },
      }),
      stats,
    );
    await pipeline(source, new Writable({ write: (_c, _e, cb) => cb() }));
    expectDurations(durations(stats), waits);
    expect(stats.calls.map((c) => c.bytes)).toEqual([10, 20, 30]);
  });

  it('not the time the consumer spends on a chunk before asking for the next', async () => {
    const stats = createRecordingStats();
    const waits = [0.75, 6];
    let produced = 0;
    const source = meterReadable(
      new Readable({
        highWaterMark: 1,
        read() {
          const wait = waits[produced];
          produced += 1;
          spend(wait ?? 0);
          this.push(wait === undefined ? null : Buffer.alloc(1));
        },
      }),
      stats,
    );
    for await (const _chunk of source) spend(1000);
    expectDurations(durations(stats), waits);
  });

  it('from the previous chunk when one request brings several', async () => {
    const stats = createRecordingStats();
    let done = false;
    const source = meterReadable(
      new Readable({
        read() {
          if (done) {
            spend(50);
            this.push(null);
            return;
          }
          done = true;
          spend(2);
          this.push(Buffer.alloc(1));
          spend(4);
          this.push(Buffer.alloc(2));
          spend(8);
          this.push(Buffer.alloc(3));
        },
      }),
      stats,
    );
    await pipeline(source, new Writable({ write: (_c, _e, cb) => cb() }));
    // The end of the stream is not an operation: the 50 ms before it are not recorded.
    expectDurations(durations(stats), [2, 4, 8]);
  });

  it('a chunk pushed before any read request waited since metering began', async () => {
    const stats = createRecordingStats();
    const source = meterReadable(new Readable({ read() {} }), stats);
    spend(7);
    source.push('abc');
    source.push(null);
    await pipeline(source, new Writable({ write: (_c, _e, cb) => cb() }));
    expectDurations(durations(stats), [7]);
  });
});

describe('meterWritable: from handing the data to the stream to its callback', () => {
  it('_write: each write its own time, not the time its data waited in the queue or the stream sat idle', async () => {
    const stats = createRecordingStats();
    const costs = [6, 0.5, 9];
    let writes = 0;
    const sink = meterWritable(
      new Writable({
        highWaterMark: 1,
        write(_chunk, _encoding, callback) {
          const cost = costs[writes] as number;
          writes += 1;
          // Part of the work before _write returns, the rest until the callback; a plain callback() and
          // callback(null) both mean success.
          spend(cost / 2);
          setImmediate(() => {
            spend(cost / 2);
            if (writes === 2) callback(null);
            else callback();
          });
        },
      }),
      stats,
    );
    // The second chunk waits in the queue while the first is written: that wait is not its duration.
    sink.write(Buffer.alloc(1));
    sink.write(Buffer.alloc(2));
    await new Promise((resolve) => sink.once('drain', resolve));
    spend(100);
    sink.end(Buffer.alloc(3));
    await new Promise((resolve, reject) => sink.on('finish', resolve).on('error', reject));
    expectDurations(durations(stats), costs);
  });

  it('_writev: one batch, one duration', async () => {
    const stats = createRecordingStats();
    const sink = meterWritable(
      new Writable({
        writev(_chunks, callback) {
          spend(12);
          setImmediate(callback);
        },
      }),
      stats,
    );
    sink.cork();
    sink.write(Buffer.alloc(4));
    sink.write(Buffer.alloc(5));
    spend(30);
    sink.uncork();
    sink.end();
    await new Promise((resolve, reject) => sink.on('finish', resolve).on('error', reject));
    expect(stats.calls.map((c) => c.bytes)).toEqual([9]);
    expectDurations(durations(stats), [12]);
  });
});

describe('meterTransform: each chunk from _transform to its callback; the final flush as one operation', () => {
  it('times the chunks and the flush, the chunks a flush feeds itself included in the flush', async () => {
    const chunks = createRecordingStats();
    const flushes = createRecordingStats();
    const costs = [1.5, 2, 4];
    let seen = 0;
    const stage = meterTransform(
      new Transform({
        transform(chunk, _encoding, callback) {
          const cost = costs[seen];
          seen += 1;
          if (cost === undefined) {
            // A chunk the flush feeds itself: part of the flush.
            spend(20);
            callback(null, chunk);
            return;
          }
          spend(cost);
          if (seen === 2) setImmediate(() => callback(null, chunk));
          else callback(null, chunk);
        },
        flush(callback) {
          spend(3);
          // Node hands Buffers to _transform with the encoding "buffer".
          this._transform(Buffer.from('tail'), 'buffer' as BufferEncoding, (error, data) => {
            this.push(data);
            spend(5);
            callback(error);
          });
        },
      }),
      chunks,
      { flush: flushes },
    );
    const sink = new Writable({
      write(_chunk, _encoding, callback) {
        // A slow reader: its time is not the transform's.
        spend(1000);
        setImmediate(callback);
      },
    });
    await pipeline(Readable.from([Buffer.alloc(1), Buffer.alloc(2), Buffer.alloc(3)]), stage, sink);
    expectDurations(durations(chunks), costs);
    expect(chunks.calls.map((c) => c.bytes)).toEqual([1, 2, 3]);
    expect(flushes.calls.map((c) => c.method)).toEqual(['timedIncrement']);
    expectDurations(durations(flushes), [3 + 20 + 5]);
  });

  it.each([
    ['callback()', undefined],
    ['callback(null)', null],
  ])('a flush ending with %s is recorded; a failed one is not', async (_name, success) => {
    const flushes = createRecordingStats();
    const ok = meterTransform(
      new Transform({
        transform: (chunk, _encoding, callback) => callback(null, chunk),
        flush(callback) {
          spend(2.5);
          callback(success);
        },
      }),
      createRecordingStats(),
      { flush: flushes },
    );
    await pipeline(Readable.from(['x']), ok, new Writable({ write: (_c, _e, cb) => cb() }));
    expectDurations(durations(flushes), [2.5]);

    const failure = new Error('last block failed');
    const failing = meterTransform(
      new Transform({
        transform: (chunk, _encoding, callback) => callback(null, chunk),
        flush(callback) {
          spend(1);
          callback(failure);
        },
      }),
      createRecordingStats(),
      { flush: flushes },
    );
    await expect(pipeline(Readable.from(['x']), failing, new Writable({ write: (_c, _e, cb) => cb() }))).rejects.toBe(failure);
    expect(flushes.calls).toHaveLength(1);
  });
});

describe('meterIterable: from asking for the next item to its arrival', () => {
  it('an async source: the waits, not the time the consumer spends on each item', async () => {
    const stats = createRecordingStats();
    const waits = [2, 7, 0.25];
    async function* source(): AsyncGenerator<Buffer> {
      for (const [i, wait] of waits.entries()) {
        await new Promise((resolve) => setImmediate(resolve));
        spend(wait);
        yield Buffer.alloc(i + 1);
      }
    }
    for await (const _item of meterIterable(source(), stats)) spend(500);
    expectDurations(durations(stats), waits);
    expect(stats.calls.map((c) => c.bytes)).toEqual([1, 2, 3]);
  });

  it('a sync source: nothing to wait for', async () => {
    const stats = createRecordingStats();
    for await (const _item of meterIterable(['a', 'bb'], stats)) spend(500);
    expectDurations(durations(stats), [0, 0]);
  });
});

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
    expectDurations(durations(stats), [25, 4]);
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
    await expect(timeAsync(stats, () => settleAfter(9, new Error('gone'), true), { recordFailures: true })).rejects.toThrow('gone');
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
    expectDurations(durations(stats), [7, 9, 1.5]);
  });
});

describe('clock reads', () => {
  it('at most two per chunk for the readable and writable meters, none for an unrecorded transform flush', async () => {
    const now = vi.spyOn(performance, 'now');
    const chunks = 20;
    const source = meterReadable(Readable.from(Array.from({ length: chunks }, () => Buffer.alloc(8)), { objectMode: false }), createRecordingStats());
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

describe('what reaches OpenTelemetry', () => {
  it('the time counter carries the measured durations, in seconds and in Vitess nanoseconds', async () => {
    for (const naming of ['otel', 'vitess'] as const) {
      const harness = createHarness();
      const stats = createBackupStats({ meterProvider: harness.provider, naming });
      const write = stats.backup.scope({ operation: 'Destination:Write' });
      const sink = meterWritable(
        new Writable({
          write(_chunk, _encoding, callback) {
            spend(1.25);
            callback();
          },
        }),
        write,
      );
      await pipeline(Readable.from([Buffer.alloc(1), Buffer.alloc(1)]), sink);
      timeSync(stats.backup.scope({ operation: 'Destination:Close' }), () => spend(0.5));
      const values = valuesByKey(await harness.collect());
      if (naming === 'otel') {
        expect(values.get('backup.time{-,-,Destination:Write}')).toBeCloseTo(0.0025, 12);
        expect(values.get('backup.time{-,-,Destination:Close}')).toBeCloseTo(0.0005, 12);
      } else {
        expect(values.get('backup_duration_nanoseconds{-,-,Destination:Write}')).toBe(2_500_000);
        expect(values.get('backup_duration_nanoseconds{-,-,Destination:Close}')).toBe(500_000);
      }
      await stats.shutdown();
      await harness.shutdown();
    }
  });
});
