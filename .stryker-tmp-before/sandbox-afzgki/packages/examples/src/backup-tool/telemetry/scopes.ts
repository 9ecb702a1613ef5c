// @ts-nocheck
import { Component, Implementation, Operation, type Stats } from 'backupstats';

/** The three handles that meter one file: open, the data, close. */
export interface FileScopes {
  readonly open: Stats;
  readonly data: Stats;
  readonly close: Stats;
}

/** Every handle the backup engine records on, taken once and held (recording on a held handle costs nanoseconds). */
export interface BackupScopes {
  /** BackupEngine/Builtin: reading the files to back up. */
  readonly source: FileScopes;
  /** BackupEngine/Builtin: Compressor:Write per chunk, Compressor:Close for the final block. */
  readonly compressorWrite: Stats;
  readonly compressorClose: Stats;
  /** BackupEngine/Builtin: the whole Backup, with the bytes backed up. */
  readonly backup: Stats;
}

/** Every handle the restore engine records on. */
export interface RestoreScopes {
  /** BackupEngine/Builtin: Decompressor:Read per decompressed chunk, Decompressor:Close for the end check. */
  readonly decompressorRead: Stats;
  readonly decompressorClose: Stats;
  /** BackupEngine/Builtin: writing the restored files. */
  readonly destination: FileScopes;
  /** BackupEngine/Builtin: the whole Restore, with the bytes restored. */
  readonly restore: Stats;
}

/** The handles of a storage folder: its objects, and File:Write / File:Read of the manifest. */
export interface FileStorageScopes {
  readonly file: FileScopes;
  readonly manifest: Stats;
}

function fileScopes(stats: Stats, side: 'Source' | 'Destination'): FileScopes {
  const data = side === 'Source' ? Operation.SourceRead : Operation.DestinationWrite;
  return {
    open: stats.scope({ operation: side === 'Source' ? Operation.SourceOpen : Operation.DestinationOpen }),
    data: stats.scope({ operation: data }),
    close: stats.scope({ operation: side === 'Source' ? Operation.SourceClose : Operation.DestinationClose }),
  };
}

function engine(stats: Stats): Stats {
  return stats.scope({ component: Component.BackupEngine, implementation: Implementation.Builtin });
}

/** The backup engine's handles, under BackupEngine/Builtin as Vitess names them. */
export function backupScopes(backup: Stats): BackupScopes {
  const builtin = engine(backup);
  return {
    source: fileScopes(builtin, 'Source'),
    compressorWrite: builtin.scope({ operation: Operation.CompressorWrite }),
    compressorClose: builtin.scope({ operation: Operation.CompressorClose }),
    backup: builtin.scope({ operation: Operation.Backup }),
  };
}

/** The restore engine's handles. */
export function restoreScopes(restore: Stats): RestoreScopes {
  const builtin = engine(restore);
  return {
    decompressorRead: builtin.scope({ operation: Operation.DecompressorRead }),
    decompressorClose: builtin.scope({ operation: Operation.DecompressorClose }),
    destination: fileScopes(builtin, 'Destination'),
    restore: builtin.scope({ operation: Operation.Restore }),
  };
}

/** A storage folder's handles under BackupStorage/File: the Destination side on backup, Source on restore. */
export function fileStorageScopes(stats: Stats, side: 'Source' | 'Destination'): FileStorageScopes {
  const storage = stats.scope({ component: Component.BackupStorage, implementation: Implementation.File });
  return {
    file: fileScopes(storage, side),
    manifest: storage.scope({ operation: side === 'Source' ? Operation.FileRead : Operation.FileWrite }),
  };
}
