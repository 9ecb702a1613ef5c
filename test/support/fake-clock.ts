// The stream-timing tests' clock: vitest's fake `performance`, which moves only when a test "spends" time, so
// that every recorded duration can be checked exactly. Tolerance: 1e-9 ms (floating-point rounding of the
// clock's own sums).
import { Readable, Transform, type TransformOptions, Writable } from 'node:stream';
import type { RecordingStats } from 'backupstats/testing';
import { afterEach, beforeEach, expect, type MockInstance, onTestFinished, vi } from 'vitest';

/**
 * Fakes `performance` around every test of the file and counts its `now()` reads; returns the counter of the
 * running test (cleared with `mockClear()` where a test counts from a later point).
 */
export function useFakeClock(): () => MockInstance<() => number> {
  let reads: MockInstance<() => number> | undefined;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['performance'] });
    // Far from 0, so that a duration that forgot to subtract its start would show.
    vi.advanceTimersByTime(1_000_000);
    reads = vi.spyOn(performance, 'now');
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });
  return () => {
    if (reads === undefined) throw new Error('the fake clock is set up before each test of the file');
    return reads;
  };
}

/** Moves the fake clock: the time the code calling it takes. */
export function spend(ms: number): void {
  vi.advanceTimersByTime(ms);
}

/** Every recorded duration, in order, equals the expected one (to 1e-9 ms). */
export function expectDurations(stats: RecordingStats, expected: readonly number[]): void {
  const actual = stats.calls.map((c) => c.durationMillis);
  expect(actual).toHaveLength(expected.length);
  for (const [i, duration] of actual.entries()) expect(duration, `duration ${i}`).toBeCloseTo(expected[i] as number, 9);
}

/** Resolves on the stream's 'finish', rejects on its 'error'. */
export function finished(stream: Writable): Promise<void> {
  return new Promise((resolve, reject) => stream.on('finish', resolve).on('error', reject));
}

/**
 * A sink whose writes (and `_writev` batches, with `writev`) take `costs[i]` ms each, half before `_write` returns
 * and half until an asynchronous callback; `batches` lists the bytes of each.
 */
export function slowSink(
  costs: readonly number[],
  options: { writev?: boolean } = {},
): Writable & { batches: number[] } {
  let i = 0;
  const finish = (callback: () => void): void => {
    const cost = costs[i] as number;
    i += 1;
    spend(cost / 2);
    setImmediate(() => {
      spend(cost / 2);
      callback();
    });
  };
  const sink = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _encoding, callback) {
      sink.batches.push(chunk.length);
      finish(callback);
    },
    ...(options.writev === true
      ? {
          writev(chunks: Array<{ chunk: Buffer }>, callback: () => void) {
            sink.batches.push(chunks.reduce((n, c) => n + c.chunk.length, 0));
            finish(callback);
          },
        }
      : {}),
  }) as Writable & { batches: number[] };
  sink.batches = [];
  return sink;
}

/**
 * A transform whose chunks take `costs[i]` ms each, half before `_transform` returns and half until an
 * asynchronous callback, that pushes its own output (as zlib does) and calls back with `data` (none by default).
 */
export function selfPushing(
  costs: readonly number[],
  options: TransformOptions = { highWaterMark: 1024 },
  data?: null,
): Transform {
  let i = 0;
  return new Transform({
    ...options,
    transform(chunk: Buffer, _encoding, callback) {
      const cost = costs[i] as number;
      i += 1;
      spend(cost / 2);
      setImmediate(() => {
        spend(cost / 2);
        this.push(chunk);
        if (data === null) callback(null, null);
        else callback();
      });
    },
  });
}

/**
 * A readable whose chunk k arrives `waits[k]` ms (spent on the fake clock) after Node asks for it, holding
 * `size(k, waits[k])` bytes; the stream ends after the last one.
 */
export function waitingSource(waits: readonly number[], size: (index: number, wait: number) => number): Readable {
  let i = 0;
  return new Readable({
    read() {
      const index = i;
      const wait = waits[index];
      i += 1;
      if (wait === undefined) {
        this.push(null);
        return;
      }
      setImmediate(() => {
        spend(wait);
        this.push(Buffer.alloc(size(index, wait)));
      });
    },
  });
}

/** A clock whose every read takes `readCost` ms, as a real one does, and which moves only when read or spent. */
export interface CostlyClock {
  /** Reads of `now()` so far. */
  readonly reads: () => number;
  /** Moves the clock: time the code calling it takes. */
  spend(ms: number): void;
  /** Where the clock stands, without reading it. */
  readonly time: () => number;
}

/**
 * Replaces the global `performance` with a {@link CostlyClock} for the running test (the meters read the global as
 * it is when a stream is metered), and `Math.random` with a generator seeded with `seed`, so that sampled timing
 * is deterministic.
 */
export function costlyClock(readCost: number, seed: number): CostlyClock {
  let now = 1_000_000;
  let reads = 0;
  vi.stubGlobal('performance', {
    now: () => {
      reads += 1;
      const read = now;
      now += readCost;
      return read;
    },
  });
  let state = seed >>> 0;
  // mulberry32: a small, well-mixed 32-bit generator, for repeatable draws.
  vi.spyOn(Math, 'random').mockImplementation(() => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  });
  onTestFinished(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
  return {
    reads: () => reads,
    spend: (ms) => {
      now += ms;
    },
    time: () => now,
  };
}
