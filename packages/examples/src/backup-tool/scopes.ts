import { Component, Implementation, Operation, type Stats } from 'backupstats';

/** The three handles that meter one file: open, the data, close. */
export interface FileScopes {
  readonly open: Stats;
  readonly data: Stats;
  readonly close: Stats;
}

/** Every handle a backup records on, taken once and held (recording on a held handle costs nanoseconds). */
export interface BackupScopes {
  /** BackupEngine/Builtin: reading the files to back up. */
  readonly source: FileScopes;
  /** BackupEngine/Builtin: Compressor:Write per chunk, Compressor:Close for the final block. */
  readonly compressorWrite: Stats;
  readonly compressorClose: Stats;
  /** BackupStorage/File: writing the compressed objects. */
  readonly destination: FileScopes;
  /** BackupStorage/File: File:Write of the manifest. */
  readonly manifestWrite: Stats;
  /** BackupEngine/Builtin: the whole Backup, with the bytes backed up. */
  readonly backup: Stats;
}

/** Every handle a restore records on. */
export interface RestoreScopes {
  /** BackupStorage/File: reading the compressed objects. */
  readonly source: FileScopes;
  /** BackupStorage/File: File:Read of the manifest. */
  readonly manifestRead: Stats;
  /** BackupEngine/Builtin: Decompressor:Read per decompressed chunk, Decompressor:Close for the end check. */
  readonly decompressorRead: Stats;
  readonly decompressorClose: Stats;
  /** BackupEngine/Builtin: writing the restored files. */
  readonly destination: FileScopes;
  /** BackupEngine/Builtin: the whole Restore, with the bytes restored. */
  readonly restore: Stats;
}

function fileScopes(stats: Stats, side: 'Source' | 'Destination'): FileScopes {
  const data = side === 'Source' ? Operation.SourceRead : Operation.DestinationWrite;
  return {
    open: stats.scope({ operation: side === 'Source' ? Operation.SourceOpen : Operation.DestinationOpen }),
    data: stats.scope({ operation: data }),
    close: stats.scope({ operation: side === 'Source' ? Operation.SourceClose : Operation.DestinationClose }),
  };
}

/** The backup handles, under BackupEngine/Builtin and BackupStorage/File as Vitess names them. */
export function backupScopes(backup: Stats): BackupScopes {
  const engine = backup.scope({ component: Component.BackupEngine, implementation: Implementation.Builtin });
  const storage = backup.scope({ component: Component.BackupStorage, implementation: Implementation.File });
  return {
    source: fileScopes(engine, 'Source'),
    compressorWrite: engine.scope({ operation: Operation.CompressorWrite }),
    compressorClose: engine.scope({ operation: Operation.CompressorClose }),
    destination: fileScopes(storage, 'Destination'),
    manifestWrite: storage.scope({ operation: Operation.FileWrite }),
    backup: engine.scope({ operation: Operation.Backup }),
  };
}

/** The restore handles. */
export function restoreScopes(restore: Stats): RestoreScopes {
  const engine = restore.scope({ component: Component.BackupEngine, implementation: Implementation.Builtin });
  const storage = restore.scope({ component: Component.BackupStorage, implementation: Implementation.File });
  return {
    source: fileScopes(storage, 'Source'),
    manifestRead: storage.scope({ operation: Operation.FileRead }),
    decompressorRead: engine.scope({ operation: Operation.DecompressorRead }),
    decompressorClose: engine.scope({ operation: Operation.DecompressorClose }),
    destination: fileScopes(engine, 'Destination'),
    restore: engine.scope({ operation: Operation.Restore }),
  };
}
