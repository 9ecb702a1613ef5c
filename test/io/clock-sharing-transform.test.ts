// When Node starts a transform chunk that waited in the input buffer from the previous chunk's callback, one
// clock read ends the previous chunk and starts the next, as for writes (clock-sharing.test.ts). Pinned on
// the fake clock (test/support/fake-clock.ts): each chunk's duration is exactly its own cost, whatever the next
// stages do, and the reads per chunk drop to one only where the rule applies.
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { meterTransform } from 'backupstats';
import { createRecordingStats } from 'backupstats/testing';
import { describe, expect, it } from 'vitest';
import { expectDurations, selfPushing, spend, useFakeClock } from '../support/fake-clock.js';

const clock = useFakeClock();

describe("meterTransform: a chunk Node starts from the previous chunk's callback starts at that callback", () => {
  it('chunks waiting in the input buffer: each chunk its own time, one clock read per chunk after the first', async () => {
    const stats = createRecordingStats();
    const costs = [1, 2, 4, 8];
    const stage = meterTransform(selfPushing(costs), stats);
    clock().mockClear();
    const received: number[] = [];
    stage.on('data', (chunk: Buffer) => received.push(chunk.length));
    for (let i = 0; i < costs.length; i++) stage.write(Buffer.alloc(i + 1));
    stage.end();
    await new Promise((resolve) => stage.on('end', resolve));
    expect(received).toEqual([1, 2, 3, 4]);
    expectDurations(stats, costs);
    expect(clock()).toHaveBeenCalledTimes(costs.length + 1);
  });

  it('a callback that carries data: the next stages it runs are not charged to the next chunk', async () => {
    const stats = createRecordingStats();
    const costs = [3, 5, 7];
    let i = 0;
    const stage = meterTransform(
      new Transform({
        highWaterMark: 1024,
        transform(chunk: Buffer, _encoding, callback) {
          const cost = costs[i] as number;
          i += 1;
          spend(cost);
          setImmediate(() => callback(null, chunk));
        },
      }),
      stats,
    );
    // A synchronous reader: Node pushes the data to it inside the callback, before taking the next chunk.
    const sink = new Writable({
      write(_chunk, _encoding, callback) {
        spend(1000);
        callback();
      },
    });
    const done = pipeline(stage, sink);
    for (let n = 0; n < costs.length; n++) stage.write(Buffer.alloc(1));
    stage.end();
    await done;
    expectDurations(stats, costs);
  });

  it('a second callback for one chunk is not recorded again (Node reports it as an error)', async () => {
    const stats = createRecordingStats();
    const stage = meterTransform(
      new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          spend(2);
          setImmediate(() => {
            callback(null, chunk);
            callback(null, chunk);
          });
        },
      }),
      stats,
    );
    const errored = new Promise((resolve) => stage.on('error', resolve));
    stage.resume();
    stage.write(Buffer.alloc(6));
    await expect(errored).resolves.toMatchObject({ code: 'ERR_MULTIPLE_CALLBACK' });
    expect(stats.calls.map((c) => c.bytes)).toEqual([6]);
    expectDurations(stats, [2]);
  });

  it("inside stream.pipeline with a slow stage: every byte counted once, durations are the chunks' own costs", async () => {
    const stats = createRecordingStats();
    const costs = Array.from({ length: 40 }, (_, n) => 0.5 + (n % 7));
    const stage = meterTransform(selfPushing(costs), stats);
    // Counted from here: metering measured what a read of this clock costs (once per clock).
    clock().mockClear();
    let received = 0;
    await pipeline(
      Readable.from(
        costs.map((_, n) => Buffer.alloc(n + 1)),
        { objectMode: false },
      ),
      stage,
      // A reader that takes no time of its own: time it spent while a chunk is in flight would be the chunk's.
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          received += chunk.length;
          setImmediate(callback);
        },
      }),
    );
    expect(received).toBe((40 * 41) / 2);
    expect(stats.totals()).toMatchObject({ count: 40, bytes: (40 * 41) / 2 });
    expectDurations(stats, costs);
    // The reader is faster than the stage, so chunks wait in its input buffer: most start at a callback.
    expect(clock().mock.calls.length).toBeLessThan(2 * costs.length);
  });
});
