// @ts-nocheck
// What the stream tests share: a sample input file, and unmetered stages to compare the metered ones with.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, Writable } from 'node:stream';
import { afterAll, beforeAll } from 'vitest';

/** A file of random and repetitive parts, so a compressor does real work both ways; not a multiple of 64 KiB. */
export interface SampleInput {
  /** The temporary folder, for the tests' own files. */
  readonly dir: string;
  readonly path: string;
  readonly bytes: Buffer;
  remove(): Promise<void>;
}

/** Writes the sample input into a new temporary folder. */
export async function writeSampleInput(): Promise<SampleInput> {
  const dir = await mkdtemp(join(tmpdir(), 'backupstats-io-'));
  const path = join(dir, 'input.bin');
  const bytes = Buffer.concat([randomBytes(3 * 1024 * 1024 + 17), Buffer.alloc(2 * 1024 * 1024, 'backupstats ')]);
  await writeFile(path, bytes);
  return { dir, path, bytes, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** The sample input of the test file: written before its first test, removed after its last. */
export function useSampleInput(): () => SampleInput {
  let sample: SampleInput | undefined;
  beforeAll(async () => {
    sample = await writeSampleInput();
  });
  afterAll(() => sample?.remove());
  return () => {
    if (sample === undefined) throw new Error('the sample input is written before the first test of the file');
    return sample;
  };
}

/** A stage with no metering that counts what goes through it, to compare the metered totals with. */
export function counter(): Transform & { chunks: number; bytes: number } {
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
export function collector(delayMs = 0): Writable & { received: Buffer[] } {
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
