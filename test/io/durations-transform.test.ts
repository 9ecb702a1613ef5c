// Every duration meterTransform and meterIterable record is what their TSDoc says it measures.
// The clock is vitest's fake `performance` (test/support/fake-clock.ts): it moves only when a stage below "spends"
// time, so each expected duration is exact. Tolerance: 1e-9 ms (floating-point rounding of the clock's own sums).
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { meterIterable, meterTransform } from 'backupstats';
import { createRecordingStats } from 'backupstats/testing';
import { describe, expect, it } from 'vitest';
import { expectDurations, spend, useFakeClock } from '../support/fake-clock.js';

useFakeClock();

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
    expectDurations(chunks, costs);
    expect(chunks.calls.map((c) => c.bytes)).toEqual([1, 2, 3]);
    expect(flushes.calls.map((c) => c.method)).toEqual(['timedIncrement']);
    expectDurations(flushes, [3 + 20 + 5]);
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
    expectDurations(flushes, [2.5]);

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
    await expect(pipeline(Readable.from(['x']), failing, new Writable({ write: (_c, _e, cb) => cb() }))).rejects.toBe(
      failure,
    );
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
    expectDurations(stats, waits);
    expect(stats.calls.map((c) => c.bytes)).toEqual([1, 2, 3]);
  });

  it('a sync source: nothing to wait for', async () => {
    const stats = createRecordingStats();
    for await (const _item of meterIterable(['a', 'bb'], stats)) spend(500);
    expectDurations(stats, [0, 0]);
  });
});
