import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { meterTransform, type Stats, timeAsync } from 'backupstats';
import { createChecksumTap } from './checksum-tap.js';
import { createCompressor, EXTENSIONS } from './compression.js';
import { ensureFolder } from './ensure-folder.js';
import { destinationError, ExitCode, reason, sourceError, ToolError } from './errors.js';
import { watchFailures } from './failure-origin.js';
import { type Compression, MANIFEST_NAME, type Manifest, type ManifestEntry } from './manifest.js';
import { openForReading, openForWriting } from './metered-file.js';
import { runPool } from './pool.js';
import type { Progress } from './progress.js';
import { backupScopes } from './scopes.js';
import { listTree, type SourceFile } from './tree.js';

/** What to back up, where, and how. */
export interface BackupOptions {
  readonly source: string;
  /** The storage folder: created if missing, must hold no backup yet. */
  readonly storage: string;
  readonly compression: Compression;
  readonly level?: number | undefined;
  readonly concurrency: number;
  readonly stats: Stats;
  readonly progress: Progress;
}

/** What a backup did. */
export interface BackupResult {
  readonly manifest: Manifest;
  readonly bytes: number;
  readonly storedBytes: number;
  readonly skipped: readonly string[];
}

/**
 * Backs up every regular file under `source` into the `storage` folder as one compressed object per file, then
 * writes the manifest (sizes, sha256). Every stage is metered: Source:Open/Read/Close and Compressor:Write/Close
 * under BackupEngine/Builtin, Destination:Open/Write/Close and File:Write (manifest) under BackupStorage/File,
 * and the whole Backup.
 */
export async function backup(options: BackupOptions): Promise<BackupResult> {
  const scopes = backupScopes(options.stats);
  return timeAsync(
    scopes.backup,
    async () => {
      const tree = await listTree(options.source);
      await prepareStorage(options.storage);
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
      const manifestPath = join(options.storage, MANIFEST_NAME);
      const text = `${JSON.stringify(manifest, null, 1)}\n`;
      try {
        await timeAsync(scopes.manifestWrite, () => writeFile(manifestPath, text, { flag: 'wx' }), {
          bytes: Buffer.byteLength(text),
        });
      } catch (error) {
        throw destinationError(manifestPath, error);
      }
      return { manifest, bytes: tree.bytes, storedBytes: entries.reduce((n, e) => n + e.storedSize, 0), skipped: tree.skipped };
    },
    // The whole Backup carries the bytes backed up, so its throughput is the job's.
    { bytes: (result) => result.bytes },
  );
}

async function prepareStorage(storage: string): Promise<void> {
  try {
    await ensureFolder(storage);
    const present = await readdir(storage);
    if (present.length > 0) {
      throw new ToolError(`storage folder ${storage} is not empty: give an empty or new folder`, ExitCode.Destination);
    }
  } catch (error) {
    throw destinationError(storage, error);
  }
}

async function backupFile(
  file: SourceFile,
  index: number,
  options: BackupOptions,
  scopes: ReturnType<typeof backupScopes>,
  signal: AbortSignal,
): Promise<ManifestEntry> {
  const object = `${String(index).padStart(6, '0')}.${EXTENSIONS[options.compression]}`;
  const objectPath = join(options.storage, object);
  let source: Awaited<ReturnType<typeof openForReading>>;
  try {
    source = await openForReading(file.absolute, scopes.source);
  } catch (error) {
    throw sourceError(file.absolute, error);
  }
  try {
    let destination: Awaited<ReturnType<typeof openForWriting>>;
    try {
      destination = await openForWriting(objectPath, scopes.destination);
    } catch (error) {
      throw destinationError(objectPath, error);
    }
    const tap = createChecksumTap(options.progress);
    const compressor = meterTransform(createCompressor(options.compression, options.level), scopes.compressorWrite, {
      flush: scopes.compressorClose,
    });
    const failedFirst = watchFailures({ source: source.stream, compressor, destination: destination.stream });
    try {
      await pipeline(source.stream, tap, compressor, destination.stream, { signal });
      await destination.close();
    } catch (error) {
      await destination.close().catch(() => {});
      await rm(objectPath, { force: true }).catch(() => {});
      if (failedFirst() === 'destination') throw destinationError(objectPath, error);
      throw sourceError(file.absolute, error);
    }
    return { path: file.path, object, size: tap.size, sha256: tap.digest(), storedSize: destination.stream.bytesWritten };
  } finally {
    await source.close().catch((error) => {
      throw sourceError(file.absolute, new Error(`closing failed: ${reason(error)}`));
    });
  }
}
