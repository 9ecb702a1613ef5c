import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import {
  Component,
  createBackupStats,
  Implementation,
  meterReadable,
  meterTransform,
  meterWritable,
  Operation,
} from 'backupstats';
import { createRecordingStats } from 'backupstats/testing';
import { describe, expect, it } from 'vitest';
import { createHarness, valuesByKey } from '../support/harness.js';
import { collector, counter, useSampleInput } from '../support/streams.js';

const sample = useSampleInput();

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

describe('metered streams pass every byte through unchanged', () => {
  it('file -> gzip -> gunzip -> file keeps the sha256, and each scope totals the bytes and chunks that passed', async () => {
    const stats = createRecordingStats();
    const engine = stats.scope({ component: Component.BackupEngine, implementation: Implementation.Builtin });
    const sourceRead = engine.scope({ operation: Operation.SourceRead });
    const compressorWrite = engine.scope({ operation: Operation.CompressorWrite });
    const compressorClose = engine.scope({ operation: Operation.CompressorClose });
    const decompressorRead = engine.scope({ operation: Operation.DecompressorRead });
    const destinationWrite = engine.scope({ operation: Operation.DestinationWrite });
    const output = join(sample().dir, 'roundtrip.bin');
    // Every handle of a recording tree shares one call list: filter by operation.
    const totals = (operation: string) => stats.totals({ operation });

    const afterSource = counter();
    const afterGunzip = counter();
    const source = createReadStream(sample().path);
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
    expect(sha256(written)).toBe(sha256(sample().bytes));
    expect(totals(Operation.SourceRead)).toMatchObject({ count: afterSource.chunks, bytes: sample().bytes.length });
    // The compressor takes in exactly the chunks the source gave; its final flush is one Close, not a chunk.
    expect(totals(Operation.CompressorWrite)).toMatchObject({
      count: afterSource.chunks,
      bytes: sample().bytes.length,
    });
    expect(totals(Operation.CompressorClose).count).toBe(1);
    expect(totals(Operation.DecompressorRead)).toMatchObject({
      count: afterGunzip.chunks,
      bytes: sample().bytes.length,
    });
    // fs write streams batch buffered chunks into one _writev: one operation per system call, all bytes counted.
    const destination = totals(Operation.DestinationWrite);
    expect(destination.bytes).toBe(sample().bytes.length);
    expect(destination.count).toBeGreaterThan(0);
    expect(destination.count).toBeLessThanOrEqual(afterGunzip.chunks);
    for (const call of stats.calls) {
      expect(call.method).toBe(
        call.labels.operation === Operation.CompressorClose ? 'timedIncrement' : 'timedIncrementBytes',
      );
      expect(Number.isFinite(call.durationMillis)).toBe(true);
    }
  });

  it('a Writable without _writev records one operation per chunk, with the chunk bytes', async () => {
    const stats = createRecordingStats();
    const sink = collector();
    await pipeline(createReadStream(sample().path, { highWaterMark: 100_000 }), meterWritable(sink, stats));
    const received = Buffer.concat(sink.received);
    expect(sha256(received)).toBe(sha256(sample().bytes));
    expect(stats.totals()).toMatchObject({ count: sink.received.length, bytes: sample().bytes.length });
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
    const storage = backupStats.backup.scope({
      component: Component.BackupStorage,
      implementation: Implementation.File,
    });
    const seen = counter();
    const sink = collector();
    await pipeline(
      meterReadable(createReadStream(sample().path), storage.scope({ operation: Operation.SourceRead })),
      seen,
      meterWritable(sink, storage.scope({ operation: Operation.DestinationWrite })),
    );
    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.operations{BackupStorage,File,Source:Read}')).toBe(seen.chunks);
    expect(values.get('backup.bytes{BackupStorage,File,Source:Read}')).toBe(sample().bytes.length);
    expect(values.get('backup.operations{BackupStorage,File,Destination:Write}')).toBe(sink.received.length);
    expect(values.get('backup.bytes{BackupStorage,File,Destination:Write}')).toBe(sample().bytes.length);
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
  ] as const)(
    "meterReadable counts a string pushed without an encoding in the stream's defaultEncoding (%s)",
    async (defaultEncoding, text) => {
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
    },
  );
});
