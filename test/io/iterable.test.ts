import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { meterIterable } from 'backupstats';
import { createRecordingStats } from 'backupstats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let dir: string;
let input: string;
let inputBytes: Buffer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'backupstats-iter-'));
  input = join(dir, 'input.bin');
  inputBytes = randomBytes(1024 * 1024 + 333);
  await writeFile(input, inputBytes);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

describe('meterIterable', () => {
  it('yields every chunk unchanged and records one operation per chunk with its bytes', async () => {
    const stats = createRecordingStats();
    const chunks: Buffer[] = [];
    for await (const chunk of meterIterable(createReadStream(input, { highWaterMark: 10_000 }), stats)) {
      chunks.push(chunk as Buffer);
    }
    expect(sha256(Buffer.concat(chunks))).toBe(sha256(inputBytes));
    expect(stats.totals()).toMatchObject({ count: chunks.length, bytes: inputBytes.length });
    expect(stats.calls.map((c) => c.bytes)).toEqual(chunks.map((c) => c.length));
  });

  it('works as a stream.pipeline stage and counts strings by their utf8 bytes', async () => {
    const stats = createRecordingStats();
    const received: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        received.push(chunk.toString('utf8'));
        callback();
      },
    });
    await pipeline(Readable.from(['héllo', ' ', 'wörld']), (source) => meterIterable(source, stats), sink);
    expect(received.join('')).toBe('héllo wörld');
    expect(stats.totals()).toMatchObject({ count: 3, bytes: Buffer.byteLength('héllo wörld') });
  });

  it('breaking out early closes the source stream', async () => {
    const stats = createRecordingStats();
    const source = createReadStream(input, { highWaterMark: 1024 });
    let seen = 0;
    for await (const _chunk of meterIterable(source, stats)) {
      seen += 1;
      if (seen === 3) break;
    }
    expect(stats.totals()).toMatchObject({ count: 3, bytes: 3072 });
    await new Promise<void>((resolve) => (source.closed ? resolve() : source.once('close', () => resolve())));
    expect(source.destroyed).toBe(true);
  });

  it('an error from the source reaches the consumer after the chunks before it', async () => {
    const stats = createRecordingStats();
    const failure = new Error('read failed');
    async function* failing(): AsyncGenerator<Buffer> {
      yield Buffer.alloc(5);
      yield Buffer.alloc(6);
      throw failure;
    }
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const chunk of meterIterable(failing(), stats)) seen.push(chunk.length);
      })(),
    ).rejects.toBe(failure);
    expect(seen).toEqual([5, 6]);
    expect(stats.totals()).toMatchObject({ count: 2, bytes: 11 });
  });
});
