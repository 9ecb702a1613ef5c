import { createHash, type Hash } from 'node:crypto';
import { Readable, Transform, type TransformCallback, Writable } from 'node:stream';
import { type MeterOptions, meterReadable, meterTransform, meterWritable, type Stats } from 'backupstats';

/** The three stages of the benchmark pipeline, each metered on its own handle when one is given. */
export interface Stages {
  readonly source: Readable;
  readonly transform: Transform;
  readonly destination: Writable;
  /** The sha1 of everything the destination received, once the pipeline has finished ('' when it only counts). */
  digest(): string;
  /** The bytes the destination received. */
  received(): number;
}

/**
 * What the destination does with a chunk: `sha1` hashes it (a backup's checksum, and the check that no byte
 * changed); `count` only adds up its length, so that a run's CPU time is the streams' and the meters' alone.
 */
export type DestinationKind = 'sha1' | 'count';

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
  kind: DestinationKind = 'sha1',
): Stages {
  const hash: Hash | undefined = kind === 'sha1' ? createHash('sha1') : undefined;
  let digest: string | undefined;
  let received = 0;
  const source = memorySource(data, chunk, total);
  const transform = new Transform({ transform: (c: Buffer, _e, done: TransformCallback) => done(null, c) });
  const destination = new Writable({
    write(c: Buffer, _e, done) {
      received += c.length;
      hash?.update(c);
      done();
    },
  });
  if (stats !== undefined) {
    meterReadable(source, stats.source, options);
    meterTransform(transform, stats.transform, options);
    meterWritable(destination, stats.destination, options);
  }
  return {
    source,
    transform,
    destination,
    digest: () => (digest ??= hash?.digest('hex') ?? ''),
    received: () => received,
  };
}
