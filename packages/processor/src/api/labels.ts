/** The value a label reads until some scope sets it. */
export const UNSET = '-';

/**
 * Labels that narrow a {@link Stats} handle. A label left out (or empty) keeps the parent's value; once a
 * label is set, scoping never changes it: the first value set wins.
 */
export interface ScopeLabels {
  /** Part of the system doing the work, for example {@link Component.BackupEngine}. */
  readonly component?: string | undefined;
  /** Which implementation of the component, for example {@link Implementation.S3}. */
  readonly implementation?: string | undefined;
  /** What is being measured, for example {@link Operation.SourceRead}. */
  readonly operation?: string | undefined;
}

/** Labels after scoping: every label has a value, {@link UNSET} where none was given. */
export interface ResolvedLabels {
  /** The `component` label. */
  readonly component: string;
  /** The `implementation` label. */
  readonly implementation: string;
  /** The `operation` label. */
  readonly operation: string;
}

/**
 * The `component` values Vitess uses.
 *
 * @enum
 */
export const Component = Object.freeze({
  /** The backup engine: reads the files, compresses them, restores them. */
  BackupEngine: 'BackupEngine',
  /** The backup storage: where backups are written and read back. */
  BackupStorage: 'BackupStorage',
} as const);

/**
 * The `implementation` values Vitess uses, plus common storage back ends.
 *
 * @enum
 */
export const Implementation = Object.freeze({
  /** Vitess's builtin engine. */
  Builtin: 'Builtin',
  /** Percona XtraBackup. */
  XtraBackup: 'XtraBackup',
  /** MySQL Shell's dump and load. */
  MySQLShell: 'MySQLShell',
  /** A folder of the file system. */
  File: 'File',
  /** Amazon S3 or an S3-compatible store. */
  S3: 'S3',
  /** Google Cloud Storage. */
  GCS: 'GCS',
  /** Azure Blob Storage. */
  Azure: 'Azure',
  /** Ceph. */
  Ceph: 'Ceph',
} as const);

/**
 * The `operation` values Vitess uses, and those of the verify and prune families.
 *
 * @enum
 */
export const Operation = Object.freeze({
  /** Opening what is read: a file to back up, a stored object to restore. */
  SourceOpen: 'Source:Open',
  /** Reading it. */
  SourceRead: 'Source:Read',
  /** Closing it. */
  SourceClose: 'Source:Close',
  /** Opening what is written: a stored object, a restored file. */
  DestinationOpen: 'Destination:Open',
  /** Writing it. */
  DestinationWrite: 'Destination:Write',
  /** Closing it. */
  DestinationClose: 'Destination:Close',
  /** Feeding the compressor. */
  CompressorWrite: 'Compressor:Write',
  /** Ending the compressor (its final flush). */
  CompressorClose: 'Compressor:Close',
  /** Reading the decompressor's output. */
  DecompressorRead: 'Decompressor:Read',
  /** Closing the decompressor. */
  DecompressorClose: 'Decompressor:Close',
  /** Reading a file of the storage itself, such as a manifest. */
  FileRead: 'File:Read',
  /** Writing a file of the storage itself, such as a manifest. */
  FileWrite: 'File:Write',
  /** One HTTP request attempt to AWS, retries included. */
  AWSRequestSend: 'AWS:Request:Send',
  /** A whole backup run. */
  Backup: 'Backup',
  /** A whole restore run. */
  Restore: 'Restore',
  /** A whole verify run: a check of a backup's integrity, or a restore drill. */
  Verify: 'Verify',
  /** A whole prune run. */
  Prune: 'Prune',
  /** One deletion of a prune, with the bytes it freed: the family's bytes of it are the bytes reclaimed. */
  PruneDelete: 'Prune:Delete',
} as const);
