// When Node starts a buffered write from the previous write's callback, one clock read ends the previous
// write and starts the next. These tests pin that rule on the fake clock (test/support/fake-clock.ts): each write's
// duration must be exactly its own cost, whatever code runs between two writes (write callbacks, 'drain'
// listeners, uncork, the rest of a synchronous _write), and the reads per write must drop to one only where
// the rule applies. The same rule for transform chunks: clock-sharing-transform.test.ts.
import { Writable } from 'node:stream';
import { meterWritable } from 'backupstats';
import { createRecordingStats } from 'backupstats/testing';
import { describe, expect, it } from 'vitest';
import { expectDurations, finished, slowSink, spend, useFakeClock } from '../support/fake-clock.js';

const clock = useFakeClock();

describe("meterWritable: a write Node starts from the previous write's callback starts at that callback", () => {
  it('buffered writes drained one by one: each write its own time, one clock read per write after the first', async () => {
    const stats = createRecordingStats();
    const costs = [4, 1.5, 7, 0.25, 3];
    const sink = meterWritable(slowSink(costs), stats);
    clock().mockClear();
    // The first write starts at once; the other four wait in the buffer while it runs.
    for (let i = 0; i < costs.length; i++) sink.write(Buffer.alloc(i + 1));
    sink.end();
    await finished(sink);
    expectDurations(stats, costs);
    expect(stats.calls.map((c) => c.bytes)).toEqual([1, 2, 3, 4, 5]);
    // Two reads for the first write, then one per write: its callback's read also starts the next.
    expect(clock()).toHaveBeenCalledTimes(costs.length + 1);
  });

  it('a buffered batch drained into _writev starts at the callback of the write before it', async () => {
    const stats = createRecordingStats();
    const sink = meterWritable(slowSink([2, 9], { writev: true }), stats);
    clock().mockClear();
    sink.write(Buffer.alloc(10));
    sink.write(Buffer.alloc(20));
    sink.write(Buffer.alloc(30));
    sink.end();
    await finished(sink);
    expect(sink.batches).toEqual([10, 50]);
    expect(stats.calls.map((c) => c.bytes)).toEqual([10, 50]);
    expectDurations(stats, [2, 9]);
    expect(clock()).toHaveBeenCalledTimes(3);
  });

  it("a write the caller starts after a callback or a 'drain' listener takes its own clock read", async () => {
    const stats = createRecordingStats();
    const costs = [5, 6, 7];
    const sink = meterWritable(slowSink(costs), stats);
    // Nothing is buffered when each callback runs, so every write comes from the caller, after other work.
    await new Promise<void>((resolve) =>
      sink.write(Buffer.alloc(1), () => {
        spend(100);
        resolve();
      }),
    );
    spend(200);
    sink.write(Buffer.alloc(1024));
    await new Promise((resolve) => sink.once('drain', resolve));
    spend(300);
    sink.end(Buffer.alloc(1));
    await finished(sink);
    expectDurations(stats, costs);
    expect(stats.calls.map((c) => c.bytes)).toEqual([1, 1024, 1]);
  });

  it("a write started inside the previous write's callback, after other work, takes its own clock read", async () => {
    const stats = createRecordingStats();
    const sink = meterWritable(slowSink([5, 6]), stats);
    sink.write(Buffer.alloc(1), () => {
      // Node runs this callback after the write ended; the next write starts only after this work.
      spend(100);
      sink.write(Buffer.alloc(2), () => sink.end());
    });
    await finished(sink);
    expectDurations(stats, [5, 6]);
  });

  it('a corked stream uncorked from a write callback takes its own clock read for the batch', async () => {
    const stats = createRecordingStats();
    const sink = meterWritable(slowSink([3, 8], { writev: true }), stats);
    clock().mockClear();
    sink.write(Buffer.alloc(1), () => {
      // Runs after the first write's callback while the next two wait corked: not their time.
      spend(50);
      sink.uncork();
      sink.end();
    });
    sink.cork();
    sink.write(Buffer.alloc(2));
    sink.write(Buffer.alloc(3));
    await finished(sink);
    expect(stats.calls.map((c) => c.bytes)).toEqual([1, 5]);
    expectDurations(stats, [3, 8]);
    expect(clock()).toHaveBeenCalledTimes(4);
  });

  it('the rest of a _write that calls back synchronously is not charged to the next write', async () => {
    const stats = createRecordingStats();
    const costs = [2, 3, 4];
    let i = 0;
    const sink = meterWritable(
      new Writable({
        highWaterMark: 1024,
        write(_chunk, _encoding, callback) {
          const cost = costs[i] as number;
          i += 1;
          if (i === 1) {
            // The first write is asynchronous, so the next two wait in the buffer and are drained by Node.
            spend(cost);
            setImmediate(callback);
            return;
          }
          spend(cost);
          callback();
          // Work after a synchronous callback: inside this _write call, after its operation ended.
          spend(40);
        },
      }),
      stats,
    );
    sink.write(Buffer.alloc(1));
    sink.write(Buffer.alloc(1));
    sink.write(Buffer.alloc(1));
    sink.end();
    await finished(sink);
    expectDurations(stats, costs);
  });

  it('a failed write records nothing, and the write after it takes its own clock read', async () => {
    const stats = createRecordingStats();
    const failure = new Error('disk full');
    let i = 0;
    const sink = meterWritable(
      new Writable({
        highWaterMark: 1024,
        write(_chunk, _encoding, callback) {
          i += 1;
          spend(i);
          setImmediate(() => callback(i === 2 ? failure : null));
        },
      }),
      stats,
    );
    const errored = new Promise((resolve) => sink.on('error', resolve));
    sink.write(Buffer.alloc(1));
    sink.write(Buffer.alloc(2));
    sink.write(Buffer.alloc(3));
    await expect(errored).resolves.toBe(failure);
    // The third write never runs: Node destroys the stream on the error and fails the buffered writes.
    expect(stats.calls.map((c) => c.bytes)).toEqual([1]);
    expectDurations(stats, [1]);
  });

  it('a second callback for one write is not recorded again (Node reports it as an error)', async () => {
    const stats = createRecordingStats();
    const sink = meterWritable(
      new Writable({
        write(_chunk, _encoding, callback) {
          spend(5);
          setImmediate(() => {
            callback();
            callback();
          });
        },
      }),
      stats,
    );
    const errored = new Promise((resolve) => sink.on('error', resolve));
    sink.write(Buffer.alloc(4));
    await expect(errored).resolves.toMatchObject({ code: 'ERR_MULTIPLE_CALLBACK' });
    expect(stats.calls.map((c) => c.bytes)).toEqual([4]);
    expectDurations(stats, [5]);
  });
});
