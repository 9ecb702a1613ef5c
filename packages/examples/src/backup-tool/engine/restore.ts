import { mkdir, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { meterReadable, meterTransform, Operation, type Run, type Stats, timeAsync, trackRun } from 'backupstats';
import { noopStats } from 'backupstats/testing';
import type { Progress } from '../cli/progress.js';
import { destinationError, ExitCode, reason, ToolError } from '../errors.js';
import { ensureFolder } from '../files/ensure-folder.js';
import { openForWriting } from '../files/metered-file.js';
import type { RestoreSource } from '../storage/storage.js';
import { runFailureReason } from '../telemetry/run-failure.js';
import { restoreScopes } from '../telemetry/scopes.js';
import { createChecksumTap } from './checksum-tap.js';
import { createDecompressor } from './compression.js';
import { watchFailures } from './failure-origin.js';
import { type Manifest, type ManifestEntry, parseManifest } from './manifest.js';
import { runPool } from './pool.js';

/** Where to restore from and to. */
export interface RestoreOptions {
  readonly source: RestoreSource;
  /** The folder to restore into: created if missing, must be empty. */
  readonly target: string;
  readonly concurrency: number;
  readonly stats: Stats;
  readonly progress: Progress;
}

/** What a restore did. */
export interface RestoreResult {
  readonly manifest: Manifest;
  readonly bytes: number;
}

/** The reason a failed restore run is recorded with. */
const restoreFailure = runFailureReason('restore');

/**
 * Restores the backup in `source` into `target` and checks every file's size and sha256 against the
 * manifest as it is written. Metered: the storage under BackupStorage (the source meters itself),
 * Decompressor:Read/Close and Destination:Open/Write/Close under BackupEngine/Builtin, and the whole Restore, which
 * is also tracked as a run.
 */
export async function restore(options: RestoreOptions): Promise<RestoreResult> {
  const scopes = restoreScopes(options.stats);
  return trackRun(scopes.restore, (run) => restoreRun(options, scopes, run), {
    bytes: (result) => result.bytes,
    reason: restoreFailure,
  });
}

async function restoreRun(
  options: RestoreOptions,
  scopes: ReturnType<typeof restoreScopes>,
  run: Run,
): Promise<RestoreResult> {
  return timeAsync(
    scopes.restore,
    async () => {
      run.phase('manifest');
      const storage = options.source;
      let text: string;
      try {
        text = await storage.readManifest();
      } catch (error) {
        const explained = storage.readError(undefined, error);
        if (explained.exitCode !== ExitCode.Corrupted) throw explained;
        throw new ToolError(
          `cannot restore from ${storage.location}: no readable manifest ${storage.manifestName} (${reason(error)}); is it a finished backup?`,
          ExitCode.Corrupted,
          { cause: error },
        );
      }
      const manifest = parseManifest(text, storage.manifestName);
      await prepareTarget(options.target);
      const bytes = manifest.files.reduce((n, f) => n + f.size, 0);
      // The restored files' bytes are known from the manifest: the files written (Destination:Write) are the progress.
      run.expectBytes(bytes, Operation.DestinationWrite);
      run.phase('copy');
      options.progress.start('restore', bytes, manifest.files.length);
      try {
        await runPool(manifest.files, options.concurrency, async (entry, _index, signal) => {
          await restoreFile(entry, manifest, options, scopes, signal);
          options.progress.fileDone();
        });
      } finally {
        options.progress.stop();
      }
      return { manifest, bytes };
    },
    { bytes: (result) => result.bytes },
  );
}

async function prepareTarget(target: string): Promise<void> {
  try {
    await ensureFolder(target);
    if ((await readdir(target)).length > 0) {
      throw new ToolError(`restore folder ${target} is not empty: give an empty or new folder`, ExitCode.Destination);
    }
  } catch (error) {
    throw destinationError(target, error);
  }
}

async function restoreFile(
  entry: ManifestEntry,
  manifest: Manifest,
  options: RestoreOptions,
  scopes: ReturnType<typeof restoreScopes>,
  signal: AbortSignal,
): Promise<void> {
  const storage = options.source;
  const targetPath = join(options.target, ...entry.path.split('/'));
  let source: Awaited<ReturnType<RestoreSource['open']>>;
  try {
    source = await storage.open(entry.object);
  } catch (error) {
    throw storage.readError(entry.object, error);
  }
  try {
    let destination: Awaited<ReturnType<typeof openForWriting>>;
    try {
      await mkdir(dirname(targetPath), { recursive: true });
      destination = await openForWriting(targetPath, scopes.destination);
    } catch (error) {
      throw destinationError(targetPath, error);
    }
    const tap = createChecksumTap(options.progress);
    // Decompressor:Read times each decompressed chunk as the reader waits for it; the final flush checks the
    // stream's end (gzip's CRC and length) and is Decompressor:Close. Its input chunks are Source:Read already.
    const decompressor = meterReadable(
      meterTransform(createDecompressor(manifest.compression), noopStats, { flush: scopes.decompressorClose }),
      scopes.decompressorRead,
    );
    const failedFirst = watchFailures({ source: source.stream, decompressor, destination: destination.stream });
    try {
      await pipeline(source.stream, decompressor, tap, destination.stream, { signal });
      await destination.close();
    } catch (error) {
      await destination.close().catch(() => {});
      if (failedFirst() === 'destination') throw destinationError(targetPath, error);
      throw storage.readError(entry.object, error);
    }
    if (tap.size !== entry.size || tap.digest() !== entry.sha256) {
      throw new ToolError(
        `cannot restore ${entry.path}: its archive ${storage.nameOf(entry.object)} gives data that does not match the manifest ` +
          `(${tap.size} bytes; expected ${entry.size} bytes with sha256 ${entry.sha256})`,
        ExitCode.Corrupted,
      );
    }
  } finally {
    await source.close().catch(() => {});
  }
}
