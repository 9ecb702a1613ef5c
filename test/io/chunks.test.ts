// What counts as one operation and how many bytes it carries, for chunks that are not Buffers.
import { Readable, type ReadableOptions, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { meterIterable, meterReadable } from 'backupstats';
import { createRecordingStats } from 'backupstats/testing';
import { describe, expect, it } from 'vitest';

describe('bytes of a chunk', () => {
  it('a string its encoded length, a Buffer or typed array its byteLength, anything else 0 (still one operation)', async () => {
    const stats = createRecordingStats();
    const items: unknown[] = [
      'héllo',
      Buffer.alloc(3),
      new Uint16Array(4),
      new DataView(new ArrayBuffer(5)),
      { byteLength: 6 },
      { byteLength: '7' },
      {},
      42,
      true,
      null,
      undefined,
      Symbol('chunk'),
    ];
    const seen: unknown[] = [];
    for await (const item of meterIterable(items, stats)) seen.push(item);
    // Each item passes unchanged: the same value, not a copy.
    expect(seen).toHaveLength(items.length);
    for (const [i, item] of seen.entries()) expect(item).toBe(items[i]);
    expect(stats.calls.map((c) => c.bytes)).toEqual([6, 3, 8, 5, 6, 0, 0, 0, 0, 0, 0, 0]);
  });
});

describe('meterReadable: what is a chunk', () => {
  it('push(undefined) delivers nothing and is not an operation; the end is not one either', async () => {
    const stats = createRecordingStats();
    let step = 0;
    const source = meterReadable(
      new Readable({
        read() {
          step += 1;
          if (step === 1) this.push(undefined);
          else if (step === 2) this.push(Buffer.alloc(4));
          else this.push(null);
        },
      }),
      stats,
    );
    const received: Buffer[] = [];
    await pipeline(
      source,
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          received.push(chunk);
          callback();
        },
      }),
    );
    expect(received.map((c) => c.length)).toEqual([4]);
    expect(stats.calls.map((c) => c.bytes)).toEqual([4]);
  });

  it('in object mode, each object is one operation of 0 bytes', async () => {
    const stats = createRecordingStats();
    const rows = [{ id: 1 }, { id: 2 }, { id: 3 }];
    const seen: unknown[] = [];
    for await (const row of meterReadable(Readable.from(rows), stats)) seen.push(row);
    expect(seen).toEqual(rows);
    expect(stats.calls.map((c) => c.bytes)).toEqual([0, 0, 0]);
  });

  it('in object mode, a string is counted as the text it is, whatever the defaultEncoding', async () => {
    const stats = createRecordingStats();
    // @types/node declares defaultEncoding for writables only; Node's Readable takes it too.
    const options = { objectMode: true, defaultEncoding: 'hex', read() {} } as ReadableOptions;
    const source = meterReadable(new Readable(options), stats);
    source.push('abcd');
    source.push(null);
    const seen: unknown[] = [];
    for await (const chunk of source) seen.push(chunk);
    expect(seen).toEqual(['abcd']);
    expect(stats.calls.map((c) => c.bytes)).toEqual([4]);
  });
});
