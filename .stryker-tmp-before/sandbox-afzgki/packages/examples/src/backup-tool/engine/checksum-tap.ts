// @ts-nocheck
import { createHash, type Hash } from 'node:crypto';
import { Transform } from 'node:stream';
import type { Progress } from '../cli/progress.js';

/** A pass-through stage that hashes and counts what flows through it and reports progress. */
export interface ChecksumTap extends Transform {
  /** Bytes seen so far. */
  readonly size: number;
  /** The sha256 of everything seen, hex; call once the stream has ended. */
  digest(): string;
}

/** Creates a {@link ChecksumTap}: the chunks go through untouched. */
export function createChecksumTap(progress: Pick<Progress, 'advance'>): ChecksumTap {
  const hash: Hash = createHash('sha256');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      size += chunk.length;
      progress.advance(chunk.length);
      callback(null, chunk);
    },
  });
  Object.defineProperty(tap, 'size', { get: () => size });
  return Object.assign(tap, { digest: () => hash.digest('hex') }) as unknown as ChecksumTap;
}
