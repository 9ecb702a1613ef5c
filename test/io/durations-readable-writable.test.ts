// Every duration meterReadable and meterWritable record is what their TSDoc says it measures.
// The clock is vitest's fake `performance` (test/support/fake-clock.ts): it moves only when a stage below "spends"
// time, so each expected duration is exact. Tolerance: 1e-9 ms (floating-point rounding of the clock's own sums).
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { meterReadable, meterWritable } from 'backupstats';
import { createRecordingStats } from 'backupstats/testing';
import { describe, expect, it } from 'vitest';
import { expectDurations, spend, useFakeClock } from '../support/fake-clock.js';

useFakeClock();

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
    expectDurations(stats, waits);
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
    expectDurations(stats, waits);
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
    expectDurations(stats, [2, 4, 8]);
  });

  it('a chunk pushed before any read request waited since metering began', async () => {
    const stats = createRecordingStats();
    const source = meterReadable(new Readable({ read() {} }), stats);
    spend(7);
    source.push('abc');
    source.push(null);
    await pipeline(source, new Writable({ write: (_c, _e, cb) => cb() }));
    expectDurations(stats, [7]);
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
    expectDurations(stats, costs);
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
    expectDurations(stats, [12]);
  });
});
