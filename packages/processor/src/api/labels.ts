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
  readonly component: string;
  readonly implementation: string;
  readonly operation: string;
}

/** The `component` values Vitess uses. */
export const Component = Object.freeze({
  BackupEngine: 'BackupEngine',
  BackupStorage: 'BackupStorage',
} as const);

/** The `implementation` values Vitess uses, plus common storage back ends. */
export const Implementation = Object.freeze({
  Builtin: 'Builtin',
  XtraBackup: 'XtraBackup',
  MySQLShell: 'MySQLShell',
  File: 'File',
  S3: 'S3',
  GCS: 'GCS',
  Azure: 'Azure',
  Ceph: 'Ceph',
} as const);

/** The `operation` values Vitess uses. */
export const Operation = Object.freeze({
  SourceOpen: 'Source:Open',
  SourceRead: 'Source:Read',
  SourceClose: 'Source:Close',
  DestinationOpen: 'Destination:Open',
  DestinationWrite: 'Destination:Write',
  DestinationClose: 'Destination:Close',
  CompressorWrite: 'Compressor:Write',
  CompressorClose: 'Compressor:Close',
  DecompressorRead: 'Decompressor:Read',
  DecompressorClose: 'Decompressor:Close',
  FileRead: 'File:Read',
  FileWrite: 'File:Write',
  AWSRequestSend: 'AWS:Request:Send',
  Backup: 'Backup',
  Restore: 'Restore',
} as const);
