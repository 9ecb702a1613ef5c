// @ts-nocheck
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Stats, timeAsync } from 'backupstats';
import { MANIFEST_NAME } from '../engine/manifest.js';
import { corruptedError, destinationError, ExitCode, ToolError } from '../errors.js';
import { ensureFolder } from '../files/ensure-folder.js';
import { openForReading, openForWriting } from '../files/metered-file.js';
import { fileStorageScopes } from '../telemetry/scopes.js';
import type { BackupTarget, RestoreSource } from './storage.js';

/**
 * A storage folder: one file per object and the manifest. Metered under BackupStorage/File as Vitess names
 * it: Destination:Open/Write/Close and File:Write (manifest) on backup, Source:Open/Read/Close and File:Read
 * on restore.
 */
export function fileBackupTarget(folder: string, backup: Stats): BackupTarget {
  const scopes = fileStorageScopes(backup, 'Destination');
  return {
    location: folder,
    async prepare() {
      try {
        await ensureFolder(folder);
        const present = await readdir(folder);
        if (present.length > 0) {
          throw new ToolError(
            `storage folder ${folder} is not empty: give an empty or new folder`,
            ExitCode.Destination,
          );
        }
      } catch (error) {
        throw destinationError(folder, error);
      }
    },
    async create(object) {
      const path = join(folder, object);
      const file = await openForWriting(path, scopes.file);
      return {
        stream: file.stream,
        async finish() {
          await file.close();
          return file.stream.bytesWritten;
        },
        async abort() {
          await file.close().catch(() => {});
          await rm(path, { force: true }).catch(() => {});
        },
      };
    },
    async writeManifest(text) {
      const path = join(folder, MANIFEST_NAME);
      try {
        await timeAsync(scopes.manifest, () => writeFile(path, text, { flag: 'wx' }), {
          bytes: Buffer.byteLength(text),
        });
      } catch (error) {
        throw destinationError(path, error);
      }
    },
    writeError: (object, error) => destinationError(object === undefined ? folder : join(folder, object), error),
    close: async () => {},
  };
}

/** Restores from a storage folder. */
export function fileRestoreSource(folder: string, restore: Stats): RestoreSource {
  const scopes = fileStorageScopes(restore, 'Source');
  const manifestName = join(folder, MANIFEST_NAME);
  return {
    location: folder,
    manifestName,
    readManifest: () =>
      timeAsync(scopes.manifest, () => readFile(manifestName, 'utf8'), { bytes: (t) => Buffer.byteLength(t) }),
    async open(object) {
      const file = await openForReading(join(folder, object), scopes.file);
      return { stream: file.stream, close: file.close };
    },
    nameOf: (object) => join(folder, object),
    readError: (object, error) => corruptedError(object === undefined ? manifestName : join(folder, object), error),
    close: async () => {},
  };
}

/** Removes a storage folder and everything in it. */
export function removeFolder(folder: string): Promise<void> {
  return rm(folder, { recursive: true, force: true });
}
