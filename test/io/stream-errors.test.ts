// Errors, destroy() and backpressure through metered streams behave as they do without metering.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { meterReadable, meterTransform, meterWritable } from 'backupstats';
import { createRecordingStats } from 'backupstats/testing';
import { describe, expect, it } from 'vitest';
import { collector, useSampleInput } from '../support/streams.js';

const sample = useSampleInput();

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
    const source = createReadStream(sample().path, { highWaterMark: 1024 });
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
    await expect(pipeline(createReadStream(sample().path, { highWaterMark: 4096 }), stage, collector())).rejects.toBe(
      failure,
    );
    expect(stats.totals()).toMatchObject({ count: 1, bytes: 4096 });
  });

  it("a corrupted gzip stream fails the pipeline with zlib's error", async () => {
    const stats = createRecordingStats();
    const corrupt = Buffer.from('this is not gzip data at all, not even close');
    const gunzip = meterReadable(
      meterTransform(createGunzip(), stats.scope({ operation: 'write' })),
      stats.scope({ operation: 'read' }),
    );
    await expect(pipeline(Readable.from([corrupt]), gunzip, collector())).rejects.toMatchObject({
      code: 'Z_DATA_ERROR',
    });
    expect(stats.totals({ operation: 'read' }).count).toBe(0);
  });

  it('destroy() on a metered file stream closes the file and ends the pipeline early', async () => {
    const stats = createRecordingStats();
    const source = meterReadable(createReadStream(sample().path, { highWaterMark: 1024 }), stats);
    const sink = collector(1);
    const done = pipeline(source, sink);
    await new Promise((resolve) => source.once('data', resolve));
    source.destroy();
    await expect(done).rejects.toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
    await new Promise<void>((resolve) => (source.closed ? resolve() : source.once('close', () => resolve())));
    expect(source.closed).toBe(true);
    expect(sink.destroyed).toBe(true);
    expect(stats.totals().bytes).toBeLessThan(sample().bytes.length);
  });

  it('destroy(error) on a metered writable rejects the pipeline with that error', async () => {
    const failure = new Error('cancelled');
    const sink = meterWritable(collector(1), createRecordingStats());
    const done = pipeline(createReadStream(sample().path, { highWaterMark: 1024 }), sink);
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
    const source = meterReadable(createReadStream(sample().path, { highWaterMark }), stats);
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
    expect((await stat(sample().path)).size).toBeGreaterThan(readWhileStalled * 10);
    source.destroy();
    release?.();
    // The source ended without its end: the pipeline fails as it does for any stream destroyed midway.
    await expect(done).rejects.toBeInstanceOf(Error);
    await expect(done).rejects.toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE', message: 'Premature close' });
  });
});
