import { pipeline } from 'node:stream/promises';
import { meterTransform, type Run, type Stats, timeAsync, trackRun } from 'backupstats';
import type { Progress } from '../cli/progress.js';
import { reason, sourceError } from '../errors.js';
import { openForReading } from '../files/metered-file.js';
import { listTree, type SourceFile } from '../files/tree.js';
import type { BackupTarget } from '../storage/storage.js';
import { runFailureReason } from '../telemetry/run-failure.js';
import { backupScopes } from '../telemetry/scopes.js';
import { createChecksumTap } from './checksum-tap.js';
import type { CompressPool } from './compress-pool.js';
import { createCompressor, EXTENSIONS } from './compression.js';
import { watchFailures } from './failure-origin.js';
import type { Compression, Manifest, ManifestEntry } from './manifest.js';
import { runPool } from './pool.js';

/** What to back up, where, and how. */
export interface BackupOptions {
  readonly source: string;
  /** Where the backup goes (a folder or S3): must hold no backup yet. */
  readonly target: BackupTarget;
  readonly compression: Compression;
  readonly level?: number | undefined;
  readonly concurrency: number;
  readonly stats: Stats;
  readonly progress: Progress;
  /** With `--workers N`: compression and checksums run in these worker threads, which meter their own stages. */
  readonly pool?: CompressPool | undefined;
}

/** What a backup did. */
export interface BackupResult {
  readonly manifest: Manifest;
  readonly bytes: number;
  readonly storedBytes: number;
  readonly skipped: readonly string[];
}

/** The reason a failed backup run is recorded with. */
const backupFailure = runFailureReason('backup');

/**
 * Backs up every regular file under `source` into the target as one compressed object per file, then writes
 * the manifest (sizes, sha256). Every stage is metered: Source:Open/Read/Close and Compressor:Write/Close under
 * BackupEngine/Builtin, the storage under BackupStorage (the target meters itself), and the whole Backup, which is
 * also tracked as a run: its outcome (with the reason of a failure), duration, and the bytes of a success.
 */
export async function backup(options: BackupOptions): Promise<BackupResult> {
  const scopes = backupScopes(options.stats);
  return trackRun(scopes.backup, (run) => backupRun(options, scopes, run), {
    bytes: (result) => result.bytes,
    reason: backupFailure,
  });
}

async function backupRun(
  options: BackupOptions,
  scopes: ReturnType<typeof backupScopes>,
  run: Run,
): Promise<BackupResult> {
  return timeAsync(
    scopes.backup,
    async () => {
      run.phase('scan');
      const tree = await listTree(options.source);
      // The run's size, once known: it exports its progress (the files' Source:Read bytes) and time left.
      run.expectBytes(tree.bytes);
      await options.target.prepare();
      run.phase('copy');
      options.progress.start('backup', tree.bytes, tree.files.length);
      const entries: ManifestEntry[] = new Array(tree.files.length);
      try {
        await runPool(tree.files, options.concurrency, async (file, index, signal) => {
          entries[index] = await backupFile(file, index, options, scopes, signal);
          options.progress.fileDone();
        });
      } finally {
        options.progress.stop();
      }
      const manifest: Manifest = {
        format: 'backupstats-example/1',
        createdAt: new Date().toISOString(),
        compression: options.compression,
        files: entries,
      };
      run.phase('manifest');
      await options.target.writeManifest(`${JSON.stringify(manifest, null, 1)}\n`);
      return {
        manifest,
        bytes: tree.bytes,
        storedBytes: entries.reduce((n, e) => n + e.storedSize, 0),
        skipped: tree.skipped,
      };
    },
    // The whole Backup carries the bytes backed up, so its throughput is the job's.
    { bytes: (result) => result.bytes },
  );
}

async function backupFile(
  file: SourceFile,
  index: number,
  options: BackupOptions,
  scopes: ReturnType<typeof backupScopes>,
  signal: AbortSignal,
): Promise<ManifestEntry> {
  const object = `${String(index).padStart(6, '0')}.${EXTENSIONS[options.compression]}`;
  const target = options.target;
  if (options.pool !== undefined) return backupFileInWorker(file, object, options, options.pool, signal);
  let source: Awaited<ReturnType<typeof openForReading>>;
  try {
    source = await openForReading(file.absolute, scopes.source);
  } catch (error) {
    throw sourceError(file.absolute, error);
  }
  try {
    let destination: Awaited<ReturnType<BackupTarget['create']>>;
    try {
      destination = await target.create(object);
    } catch (error) {
      throw target.writeError(object, error);
    }
    const tap = createChecksumTap(options.progress);
    const compressor = meterTransform(createCompressor(options.compression, options.level), scopes.compressorWrite, {
      flush: scopes.compressorClose,
    });
    const failedFirst = watchFailures({ source: source.stream, compressor, destination: destination.stream });
    try {
      await pipeline(source.stream, tap, compressor, destination.stream, { signal });
    } catch (error) {
      await destination.abort();
      if (failedFirst() === 'destination') throw target.writeError(object, error);
      throw sourceError(file.absolute, error);
    }
    const storedSize = await finishStored(destination, target, object);
    return { path: file.path, object, size: tap.size, sha256: tap.digest(), storedSize };
  } finally {
    await source.close().catch((error) => {
      throw sourceError(file.absolute, new Error(`closing failed: ${reason(error)}`));
    });
  }
}

/** The same as {@link backupFile}, with the file read, hashed and compressed in a worker thread of `pool`. */
async function backupFileInWorker(
  file: SourceFile,
  object: string,
  options: BackupOptions,
  pool: CompressPool,
  signal: AbortSignal,
): Promise<ManifestEntry> {
  const target = options.target;
  let destination: Awaited<ReturnType<BackupTarget['create']>>;
  try {
    destination = await target.create(object);
  } catch (error) {
    throw target.writeError(object, error);
  }
  const { output, done } = pool.compress(file.absolute, options.compression, options.level, (bytes) =>
    options.progress.advance(bytes),
  );
  const [stored, compressed] = await Promise.allSettled([pipeline(output, destination.stream, { signal }), done]);
  if (compressed.status === 'rejected' || stored.status === 'rejected') {
    await destination.abort();
    if (compressed.status === 'rejected') throw sourceError(file.absolute, compressed.reason);
    throw target.writeError(object, (stored as PromiseRejectedResult).reason);
  }
  const storedSize = await finishStored(destination, target, object);
  return { path: file.path, object, size: compressed.value.size, sha256: compressed.value.sha256, storedSize };
}

/** Completes the stored object and returns its size; an object that could not be completed is aborted. */
async function finishStored(
  destination: Awaited<ReturnType<BackupTarget['create']>>,
  target: BackupTarget,
  object: string,
): Promise<number> {
  try {
    return await destination.finish();
  } catch (error) {
    await destination.abort();
    throw target.writeError(object, error);
  }
}
