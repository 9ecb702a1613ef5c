// Edges of the stream meters' clock sharing and sampled timing that the main tests (io-clock-sharing*,
// io-sampled-timing) do not reach: a drained operation after an untimed one, a transform whose callback Node
// defers until its reader reads, a _writev batch followed by another, several chunks per read request, a
// callback with null data, and the whole timeOneIn error. Each one kills a mutant the other tests let survive.
import { Readable, Writable } from 'node:stream';
import { meterReadable, meterTransform, meterWritable } from 'backupstats';
import { createRecordingStats } from 'backupstats/testing';
import { describe, expect, it, vi } from 'vitest';
import { expectDurations, finished, selfPushing, slowSink, spend, useFakeClock } from '../support/fake-clock.js';

const clock = useFakeClock();

describe('stream meters at the edges of clock sharing and sampling', () => {
  it("timeOneIn: a timed write drained from an untimed write's callback takes its own clock read", async () => {
    // The second write of each block of two timed: writes 1 and 3 untimed, 2 and 4 timed for two each.
    vi.spyOn(Math, 'random').mockReturnValue(1.5 / 2);
    const stats = createRecordingStats();
    const sink = meterWritable(slowSink([1, 2, 4, 8]), stats, { timeOneIn: 2 });
    for (let n = 1; n <= 4; n++) sink.write(Buffer.alloc(n));
    sink.end();
    await finished(sink);
    expect(stats.calls.map((c) => c.bytes)).toEqual([1, 2, 3, 4]);
    expectDurations(stats, [0, 2, 0, 8]);
    expect(stats.calls.map((c) => c.weight)).toEqual([0, 2, 0, 2]);
  });

  it("a _writev batch drained from a batch's callback starts at that callback, one clock read for both", async () => {
    const stats = createRecordingStats();
    const sink = meterWritable(slowSink([2, 9, 5], { writev: true }), stats);
    clock().mockClear();
    sink.write(Buffer.alloc(1));
    sink.write(Buffer.alloc(2));
    sink.write(Buffer.alloc(3));
    // Runs after the first write's callback, while the batch of 2 and 3 is in flight: 4 and 5 wait for it.
    setImmediate(() => {
      sink.write(Buffer.alloc(4));
      sink.end(Buffer.alloc(5));
    });
    await finished(sink);
    expect(sink.batches).toEqual([1, 5, 9]);
    expectDurations(stats, [2, 9, 5]);
    // Two reads for the first write, then one per batch: each callback's read starts the batch after it.
    expect(clock()).toHaveBeenCalledTimes(4);
  });

  it('meterTransform: a chunk started only when the reader reads does not count the wait for the reader', async () => {
    const stats = createRecordingStats();
    const costs = [3, 5];
    // Past the readable side's highWaterMark with no reader: Node holds each callback until a read.
    const stage = meterTransform(selfPushing(costs, { readableHighWaterMark: 1 }), stats);
    stage.write(Buffer.alloc(4));
    stage.write(Buffer.alloc(4));
    // Not ended yet: Node calls back at once for a stream whose writable side has ended.
    // (Not vi.waitFor: with fake timers it moves the clock while it waits.)
    await new Promise((resolve) => setImmediate(resolve));
    expect(stats.calls).toHaveLength(1);
    spend(100);
    stage.resume();
    stage.end();
    await new Promise((resolve) => stage.on('end', resolve));
    expectDurations(stats, costs);
  });

  it('meterTransform: a callback with null data lets the next chunk start at it, as one without data', async () => {
    const stats = createRecordingStats();
    const costs = [1, 2, 4];
    const stage = meterTransform(selfPushing(costs, { highWaterMark: 1024 }, null), stats);
    clock().mockClear();
    stage.resume();
    for (let n = 0; n < costs.length; n++) stage.write(Buffer.alloc(1));
    stage.end();
    await new Promise((resolve) => stage.on('end', resolve));
    expectDurations(stats, costs);
    expect(clock()).toHaveBeenCalledTimes(costs.length + 1);
  });

  it("meterReadable with timeOneIn: the timed chunk's wait starts at the untimed chunk before it, within one read", async () => {
    // Blocks of three chunks, the third timed: chunks 1 and 2 untimed, 3 timed for three.
    vi.spyOn(Math, 'random').mockReturnValue(2.5 / 3);
    const stats = createRecordingStats();
    let pushed = false;
    const source = new Readable({
      read() {
        if (pushed) return;
        pushed = true;
        setImmediate(() => {
          // One read request, three chunks, time passing between them.
          for (const wait of [1, 2, 4]) {
            spend(wait);
            this.push(Buffer.alloc(wait));
          }
          this.push(null);
        });
      },
    });
    meterReadable(source, stats, { timeOneIn: 3 });
    let received = 0;
    for await (const chunk of source) received += (chunk as Buffer).length;
    expect(received).toBe(7);
    expectDurations(stats, [0, 0, 4]);
    expect(stats.calls.map((c) => c.weight)).toEqual([0, 0, 3]);
  });

  it('a bad timeOneIn: the whole message names the option, the value and what is accepted', () => {
    expect(() => meterWritable(new Writable(), createRecordingStats(), { timeOneIn: 0 })).toThrow(
      new TypeError(
        'backupstats: meterWritable option timeOneIn is 0; accepted: an integer from 1 to 65536 (operations per timed operation)',
      ),
    );
  });
});
