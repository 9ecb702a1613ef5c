import { createHash, type Hash } from 'node:crypto';
import { Readable, Transform, type TransformCallback, Writable } from 'node:stream';
import type { Stats } from 'backupstats';

// TODO(bench): a thin local stand-in for the library's metered stream wrappers (packages/processor/src/io),
// which are being written; switch to the shipped wrappers as soon as 'backupstats' exports them.

/** The three stages of the benchmark pipeline, each metered on its own handle when one is given. */
export interface Stages {
  readonly source: Readable;
  readonly transform: Transform;
  readonly destination: Writable;
  /** The sha1 of everything the destination received, once the pipeline has finished. */
  digest(): string;
}

/** The handles each stage records on; absent for the unmetered pipeline. */
export interface StageStats {
  readonly source: Stats;
  readonly transform: Stats;
  readonly destination: Stats;
}

/** Source of `total` bytes in `chunk`-byte slices of `data`, from memory so the disk is not measured. */
function memorySource(data: Buffer, chunk: number, total: number): Readable {
  let sent = 0;
  let offset = 0;
  return new Readable({
    read() {
      while (sent < total) {
        const size = Math.min(chunk, total - sent);
        if (offset + size > data.length) offset = 0;
        const slice = data.subarray(offset, offset + size);
        offset += size;
        sent += size;
        if (!this.push(slice)) return;
      }
      this.push(null);
    },
  });
}

/** Builds the pipeline's stages, metered on `stats` when given. */
export function createStages(data: Buffer, chunk: number, total: number, stats: StageStats | undefined): Stages {
  const hash: Hash = createHash('sha1');
  let digest: string | undefined;
  const raw = memorySource(data, chunk, total);
  if (stats === undefined) {
    return {
      source: raw,
      transform: new Transform({ transform: (c: Buffer, _e, done: TransformCallback) => done(null, c) }),
      destination: new Writable({
        write(c: Buffer, _e, done) {
          hash.update(c);
          done();
        },
      }),
      digest: () => (digest ??= hash.digest('hex')),
    };
  }
  const { source, transform, destination } = stats;
  // Time spent waiting for each chunk of the source: from the previous chunk to this one.
  let last = performance.now();
  const meteredSource = raw.pipe(
    new Transform({
      transform(c: Buffer, _e, done: TransformCallback) {
        const now = performance.now();
        source.timedIncrementBytes(c.length, now - last);
        last = now;
        done(null, c);
      },
    }),
  );
  return {
    source: meteredSource,
    transform: new Transform({
      transform(c: Buffer, _e, done: TransformCallback) {
        const start = performance.now();
        this.push(c);
        transform.timedIncrementBytes(c.length, performance.now() - start);
        done();
      },
    }),
    destination: new Writable({
      write(c: Buffer, _e, done) {
        const start = performance.now();
        hash.update(c);
        destination.timedIncrementBytes(c.length, performance.now() - start);
        done();
      },
    }),
    digest: () => (digest ??= hash.digest('hex')),
  };
}
