// @ts-nocheck
import { createHash, type Hash } from 'node:crypto';
import { Readable, Transform, type TransformCallback, Writable } from 'node:stream';
import { type MeterOptions, meterReadable, meterTransform, meterWritable, type Stats } from 'backupstats';

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

/**
 * Builds the pipeline's stages: the same three streams in every mode, metered in place by the library's own
 * wrappers (`meterReadable`, `meterTransform`, `meterWritable`) when `stats` is given, so the benchmark
 * measures the code users run; `options` are the meters' own (sampled timing).
 */
export function createStages(
  data: Buffer,
  chunk: number,
  total: number,
  stats: StageStats | undefined,
  options: MeterOptions = {},
): Stages {
  const hash: Hash = createHash('sha1');
  let digest: string | undefined;
  const source = memorySource(data, chunk, total);
  const transform = new Transform({ transform: (c: Buffer, _e, done: TransformCallback) => done(null, c) });
  const destination = new Writable({
    write(c: Buffer, _e, done) {
      hash.update(c);
      done();
    },
  });
  if (stats !== undefined) {
    meterReadable(source, stats.source, options);
    meterTransform(transform, stats.transform, options);
    meterWritable(destination, stats.destination, options);
  }
  return { source, transform, destination, digest: () => (digest ??= hash.digest('hex')) };
}
