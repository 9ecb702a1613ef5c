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

/** The labels of a handle no scope has narrowed. */
export const ROOT_LABELS: ResolvedLabels = Object.freeze({
  component: UNSET,
  implementation: UNSET,
  operation: UNSET,
});

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

function pick(current: string, given: unknown): string {
  if (current !== UNSET || given === undefined || given === null || given === '') return current;
  return typeof given === 'string' ? given : String(given);
}

/** Applies `given` on top of `parent`, keeping every label the parent already set. */
export function mergeLabels(parent: ResolvedLabels, given: ScopeLabels | undefined): ResolvedLabels {
  if (given === undefined || given === null) return parent;
  return {
    component: pick(parent.component, given.component),
    implementation: pick(parent.implementation, given.implementation),
    operation: pick(parent.operation, given.operation),
  };
}

/** A key unique to one combination of label values; NUL cannot be confused with label text in practice. */
export function labelKey(labels: ResolvedLabels): string {
  return `${labels.component}\u0000${labels.implementation}\u0000${labels.operation}`;
}
