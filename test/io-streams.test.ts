import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import {
  Component,
  createBackupStats,
  createRecordingStats,
  Implementation,
  meterReadable,
  meterTransform,
  meterWritable,
  Operation,
} from 'backupstats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, valuesByKey } from './support/harness.js';

let dir: string;
let input: string;
let inputBytes: Buffer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'backupstats-io-'));
  input = join(dir, 'input.bin');
  // Random and repetitive parts, so the compressor does real work both ways; not a multiple of 64 KiB.
  inputBytes = Buffer.concat([randomBytes(3 * 1024 * 1024 + 17), Buffer.alloc(2 * 1024 * 1024, 'backupstats ')]);
  await writeFile(input, inputBytes);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** A stage with no metering that counts what goes through it, to compare the metered totals with. */
function counter(): Transform & { chunks: number; bytes: number } {
  const stage = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      stage.chunks += 1;
      stage.bytes += chunk.length;
      callback(null, chunk);
    },
  }) as Transform & { chunks: number; bytes: number };
  stage.chunks = 0;
  stage.bytes = 0;
  return stage;
}

/** A Writable without _writev that keeps what it gets, so every chunk is its own write. */
function collector(delayMs = 0): Writable & { received: Buffer[] } {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      sink.received.push(chunk);
      if (delayMs > 0) setTimeout(callback, delayMs);
      else setImmediate(callback);
    },
  }) as Writable & { received: Buffer[] };
  sink.received = [];
  return sink;
}

describe('metered streams pass every byte through unchanged', () => {
  it('file -> gzip -> gunzip -> file keeps the sha256, and each scope totals the bytes and chunks that passed', async () => {
    const stats = createRecordingStats();
    const engine = stats.scope({ component: Component.BackupEngine, implementation: Implementation.Builtin });
    const sourceRead = engine.scope({ operation: Operation.SourceRead });
    const compressorWrite = engine.scope({ operation: Operation.CompressorWrite });
    const compressorClose = engine.scope({ operation: Operation.CompressorClose });
    const decompressorRead = engine.scope({ operation: Operation.DecompressorRead });
    const destinationWrite = engine.scope({ operation: Operation.DestinationWrite });
    const output = join(dir, 'roundtrip.bin');
    // Every handle of a recording tree shares one call list: filter by operation.
    const totals = (operation: string) => stats.totals({ operation });

    const afterSource = counter();
    const afterGunzip = counter();
    const source = createReadStream(input);
    expect(meterReadable(source, sourceRead)).toBe(source);
    await pipeline(
      source,
      afterSource,
      meterTransform(createGzip(), compressorWrite, { flush: compressorClose }),
      meterReadable(createGunzip(), decompressorRead),
      afterGunzip,
      meterWritable(createWriteStream(output), destinationWrite),
    );

    const written = await readFile(output);
    expect(sha256(written)).toBe(sha256(inputBytes));
    expect(totals(Operation.SourceRead)).toMatchObject({ count: afterSource.chunks, bytes: inputBytes.length });
    // The compressor takes in exactly the chunks the source gave; its final flush is one Close, not a chunk.
    expect(totals(Operation.CompressorWrite)).toMatchObject({ count: afterSource.chunks, bytes: inputBytes.length });
    expect(totals(Operation.CompressorClose).count).toBe(1);
    expect(totals(Operation.DecompressorRead)).toMatchObject({ count: afterGunzip.chunks, bytes: inputBytes.length });
    // fs write streams batch buffered chunks into one _writev: one operation per system call, all bytes counted.
    const destination = totals(Operation.DestinationWrite);
    expect(destination.bytes).toBe(inputBytes.length);
    expect(destination.count).toBeGreaterThan(0);
    expect(destination.count).toBeLessThanOrEqual(afterGunzip.chunks);
    for (const call of stats.calls) {
      expect(call.method).toBe(call.labels.operation === Operation.CompressorClose ? 'timedIncrement' : 'timedIncrementBytes');
      expect(Number.isFinite(call.durationMs)).toBe(true);
    }
  });

  it('a Writable without _writev records one operation per chunk, with the chunk bytes', async () => {
    const stats = createRecordingStats();
    const sink = collector();
    await pipeline(createReadStream(input, { highWaterMark: 100_000 }), meterWritable(sink, stats));
    const received = Buffer.concat(sink.received);
    expect(sha256(received)).toBe(sha256(inputBytes));
    expect(stats.totals()).toMatchObject({ count: sink.received.length, bytes: inputBytes.length });
    expect(stats.calls.map((c) => c.bytes)).toEqual(sink.received.map((c) => c.length));
  });

  it('a corked batch through _writev is one operation carrying every chunk', async () => {
    const stats = createRecordingStats();
    const batches: number[] = [];
    const sink = meterWritable(
      new Writable({
        writev(chunks, callback) {
          batches.push(chunks.reduce((n, c) => n + (c.chunk as Buffer).length, 0));
          setImmediate(callback);
        },
      }),
      stats,
    );
    sink.cork();
    sink.write(Buffer.alloc(10));
    sink.write('héllo');
    sink.write(Buffer.alloc(5));
    sink.uncork();
    sink.end(Buffer.alloc(7));
    await new Promise((resolve, reject) => sink.on('finish', resolve).on('error', reject));
    expect(batches).toEqual([21, 7]);
    expect(stats.calls.map((c) => c.bytes)).toEqual([21, 7]);
  });

  it('exports, through a real MeterProvider, the bytes and chunk counts that passed', async () => {
    const harness = createHarness();
    const backupStats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis: 60_000 });
    const storage = backupStats.backup.scope({ component: Component.BackupStorage, implementation: Implementation.File });
    const seen = counter();
    const sink = collector();
    await pipeline(
      meterReadable(createReadStream(input), storage.scope({ operation: Operation.SourceRead })),
      seen,
      meterWritable(sink, storage.scope({ operation: Operation.DestinationWrite })),
    );
    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.operations{BackupStorage,File,Source:Read}')).toBe(seen.chunks);
    expect(values.get('backup.bytes{BackupStorage,File,Source:Read}')).toBe(inputBytes.length);
    expect(values.get('backup.operations{BackupStorage,File,Destination:Write}')).toBe(sink.received.length);
    expect(values.get('backup.bytes{BackupStorage,File,Destination:Write}')).toBe(inputBytes.length);
    expect(values.get('backup.time{BackupStorage,File,Source:Read}')).toBeGreaterThanOrEqual(0);
    await backupStats.shutdown();
    await harness.shutdown();
  });

  it('counts strings by their encoded bytes', async () => {
    const stats = createRecordingStats();
    const source = meterReadable(new Readable({ read() {} }), stats.scope({ operation: 'read' }));
    const sink = meterWritable(collector(), stats.scope({ operation: 'write' }));
    source.push('héllo', 'utf8');
    source.push(Buffer.from([1, 2, 3]));
    source.push(null);
    await pipeline(source, sink);
    expect(stats.totals({ operation: 'read' })).toMatchObject({ count: 2, bytes: 9 });
    expect(stats.totals({ operation: 'write' })).toMatchObject({ count: 2, bytes: 9 });
  });

  it.each([
    ['hex', 'ffffffff'],
    ['latin1', 'ééé'],
    ['base64', 'aGVsbG8gd29ybGQ='],
    ['utf16le', 'hé'],
    ['utf8', 'héllo'],
  ] as const)('meterReadable counts a string pushed without an encoding in the stream\'s defaultEncoding (%s)', async (defaultEncoding, text) => {
    const stats = createRecordingStats();
    // Node's Readable takes `defaultEncoding` (a Duplex or Transform passes it to both sides); @types/node
    // declares it only for writables, hence the options object outside the call.
    const options = { defaultEncoding, read() {} };
    const source = meterReadable(new Readable(options), stats);
    source.push(text);
    source.push('é', 'utf8'); // an explicit encoding still wins
    source.push(null);
    let received = 0;
    for await (const chunk of source) received += (chunk as Buffer).length;
    expect(received).toBe(Buffer.byteLength(text, defaultEncoding) + 2);
    expect(stats.totals()).toMatchObject({ count: 2, bytes: received });
  });
});

describe('errors and destroy() pass through', () => {
  it('an error from a metered source rejects the pipeline with that error and records the chunks before it', async () => {
    const stats = createRecordingStats();
    const failure = new Error('disk gone');
    let sent = 0;
    const source = meterReadable(
      new Readable({
        read() {
          if (sent === 3) {
            this.destroy(failure);
            return;
          }
          sent += 1;
          this.push(Buffer.alloc(1000));
        },
      }),
      stats,
    );
    const sink = collector();
    await expect(pipeline(source, sink)).rejects.toBe(failure);
    expect(stats.totals()).toMatchObject({ count: 3, bytes: 3000 });
    expect(sink.destroyed).toBe(true);
  });

  it('a failed write rejects the pipeline with its error, records nothing for it, and destroys the source', async () => {
    const stats = createRecordingStats();
    const failure = new Error('no space left on device');
    let writes = 0;
    const sink = meterWritable(
      new Writable({
        write(_chunk, _encoding, callback) {
          writes += 1;
          setImmediate(() => callback(writes === 3 ? failure : null));
        },
      }),
      stats,
    );
    const source = createReadStream(input, { highWaterMark: 1024 });
    await expect(pipeline(source, sink)).rejects.toBe(failure);
    expect(stats.totals()).toMatchObject({ count: 2, bytes: 2048 });
    expect(source.destroyed).toBe(true);
  });

  it('a failed transform rejects the pipeline with its error and records nothing for that chunk', async () => {
    const stats = createRecordingStats();
    const failure = new Error('bad block');
    let chunks = 0;
    const stage = meterTransform(
      new Transform({
        transform(chunk, _encoding, callback) {
          chunks += 1;
          callback(chunks === 2 ? failure : null, chunk);
        },
      }),
      stats,
    );
    await expect(pipeline(createReadStream(input, { highWaterMark: 4096 }), stage, collector())).rejects.toBe(failure);
    expect(stats.totals()).toMatchObject({ count: 1, bytes: 4096 });
  });

  it('a corrupted gzip stream fails the pipeline with zlib\'s error', async () => {
    const stats = createRecordingStats();
    const corrupt = Buffer.from('this is not gzip data at all, not even close');
    const gunzip = meterReadable(meterTransform(createGunzip(), stats.scope({ operation: 'write' })), stats.scope({ operation: 'read' }));
    await expect(pipeline(Readable.from([corrupt]), gunzip, collector())).rejects.toMatchObject({ code: 'Z_DATA_ERROR' });
    expect(stats.totals({ operation: 'read' }).count).toBe(0);
  });

  it('destroy() on a metered file stream closes the file and ends the pipeline early', async () => {
    const stats = createRecordingStats();
    const source = meterReadable(createReadStream(input, { highWaterMark: 1024 }), stats);
    const sink = collector(1);
    const done = pipeline(source, sink);
    await new Promise((resolve) => source.once('data', resolve));
    source.destroy();
    await expect(done).rejects.toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
    await new Promise<void>((resolve) => (source.closed ? resolve() : source.once('close', () => resolve())));
    expect(source.closed).toBe(true);
    expect(sink.destroyed).toBe(true);
    expect(stats.totals().bytes).toBeLessThan(inputBytes.length);
  });

  it('destroy(error) on a metered writable rejects the pipeline with that error', async () => {
    const failure = new Error('cancelled');
    const sink = meterWritable(collector(1), createRecordingStats());
    const done = pipeline(createReadStream(input, { highWaterMark: 1024 }), sink);
    setTimeout(() => sink.destroy(failure), 5);
    await expect(done).rejects.toBe(failure);
  });
});

describe('backpressure holds', () => {
  it('a slow metered writer keeps a metered source from reading far ahead', async () => {
    const stats = createRecordingStats();
    const chunk = 1024;
    const total = 300;
    const highWaterMark = 4 * chunk;
    let produced = 0;
    let maxLead = 0;
    const source = meterReadable(
      new Readable({
        highWaterMark,
        read() {
          if (produced === total * chunk) {
            this.push(null);
            return;
          }
          produced += chunk;
          this.push(Buffer.alloc(chunk, produced % 251));
        },
      }),
      stats.scope({ operation: 'read' }),
    );
    let consumed = 0;
    const sink = meterWritable(
      new Writable({
        highWaterMark,
        write(data: Buffer, _encoding, callback) {
          consumed += data.length;
          maxLead = Math.max(maxLead, produced - consumed);
          // Slow: the writer is the bottleneck, so only backpressure can hold the source back.
          setTimeout(callback, 1);
        },
      }),
      stats.scope({ operation: 'write' }),
    );
    const stage = meterTransform(
      new Transform({ highWaterMark, transform: (data, _encoding, callback) => callback(null, data) }),
      stats.scope({ operation: 'transform' }),
    );
    await pipeline(source, stage, sink);
    expect(consumed).toBe(total * chunk);
    // Bounded by the buffers of the stages (source + transform's two sides + writer) plus the chunk in hand.
    expect(maxLead).toBeLessThanOrEqual(4 * highWaterMark + chunk);
    expect(source.readableHighWaterMark).toBe(highWaterMark);
    expect(sink.writableHighWaterMark).toBe(highWaterMark);
    for (const operation of ['read', 'transform', 'write']) {
      expect(stats.totals({ operation })).toMatchObject({ count: total, bytes: total * chunk });
    }
  });

  it('a metered file source is not read past its highWaterMark while the writer is stalled', async () => {
    const stats = createRecordingStats();
    const highWaterMark = 16 * 1024;
    const source = meterReadable(createReadStream(input, { highWaterMark }), stats);
    let release: (() => void) | undefined;
    const stalled = new Writable({
      highWaterMark,
      write(_data, _encoding, callback) {
        release = callback;
      },
    });
    const done = pipeline(source, stalled);
    // Let the streams settle while the writer holds its first callback.
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const readWhileStalled = stats.totals().bytes;
    expect(readWhileStalled).toBeLessThanOrEqual(highWaterMark * 3);
    expect((await stat(input)).size).toBeGreaterThan(readWhileStalled * 10);
    source.destroy();
    release?.();
    await expect(done).rejects.toBeDefined();
  });
});
