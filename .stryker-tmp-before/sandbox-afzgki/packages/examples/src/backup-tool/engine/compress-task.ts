// @ts-nocheck
// The task of the compression pool (`--workers N`), run in a worker thread by piscina: it reads one source file,
// hashes and compresses it, and sends the compressed chunks to the main thread over the task's port, one at a time
// (the next once the main thread has taken the last). The worker meters its stages on handles of its own, connected
// to the main thread's stats through the link in piscina's workerData: Source:Open/Read/Close and
// Compressor:Write/Close, exactly as the backup does them without workers.

import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MessagePort } from 'node:worker_threads';
import { meterTransform, type WorkerLink } from 'backupstats';
import { connectBackupStats } from 'backupstats/worker';
import { workerData } from 'piscina';
import { openForReading } from '../files/metered-file.js';
import { backupScopes } from '../telemetry/scopes.js';
import { createChecksumTap } from './checksum-tap.js';
import { createCompressor } from './compression.js';
import type { Compression } from './manifest.js';

/** One file to compress, and the port its chunks go out on. */
export interface CompressTask {
  readonly path: string;
  readonly compression: Compression;
  readonly level: number | undefined;
  readonly port: MessagePort;
}

/** What comes back on the port: a compressed chunk with the source bytes read since the last message. */
export interface ChunkMessage {
  readonly chunk: Uint8Array;
  readonly read: number;
}

const stats = connectBackupStats((workerData as { link: WorkerLink }).link);
const scopes = backupScopes(stats.backup);

/** Compresses one file; resolves with its size and sha256, as the checksum tap saw it. */
export default async function compress(task: CompressTask): Promise<{ size: number; sha256: string; read: number }> {
  const { port } = task;
  let read = 0;
  const tap = createChecksumTap({ advance: (bytes) => (read += bytes) });
  let acknowledged: (() => void) | undefined;
  port.on('message', () => acknowledged?.());
  const out = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      acknowledged = () => callback();
      port.postMessage({ chunk, read } satisfies ChunkMessage);
      read = 0;
    },
  });
  const source = await openForReading(task.path, scopes.source);
  try {
    const compressor = meterTransform(createCompressor(task.compression, task.level), scopes.compressorWrite, {
      flush: scopes.compressorClose,
    });
    await pipeline(source.stream, tap, compressor, out);
  } finally {
    await source.close();
    port.close();
  }
  return { size: tap.size, sha256: tap.digest(), read };
}
