import { resolve } from 'node:path';
import type { Stats } from 'backupstats';
import { listTree } from '../files/tree.js';
import type { AzureLocation } from './azure-storage.js';
import { fileBackupTarget, fileRestoreSource, removeFolder } from './file-storage.js';
import { type S3Connection, s3ConnectionFromEnv } from './s3-connection.js';
import { below, isS3Url, parseS3Location, type S3Location, s3Url } from './s3-location.js';
import type { BackupTarget, RestoreSource } from './storage.js';

/** Where a backup is kept: a folder, or a bucket and prefix with the connection to reach it. */
export type StorageLocation =
  | { readonly kind: 'folder'; readonly folder: string }
  | { readonly kind: 's3'; readonly location: S3Location; readonly connection: S3Connection }
  | { readonly kind: 'azure'; readonly location: AzureLocation };

/** Resolves `--storage` (or a command's storage argument): `s3://bucket/prefix` with AWS's variables, or a folder. */
export function storageLocation(text: string, name: string, env: NodeJS.ProcessEnv): StorageLocation {
  if (!isS3Url(text)) return { kind: 'folder', folder: resolve(text) };
  return { kind: 's3', location: parseS3Location(text, name), connection: s3ConnectionFromEnv(env) };
}

/** The location one level down (`--loop` cycles). */
export function storageBelow(where: StorageLocation, name: string): StorageLocation {
  if (where.kind === 'folder') return { kind: 'folder', folder: resolve(where.folder, name) };
  if (where.kind === 'azure')
    return { kind: 'azure', location: { ...where.location, prefix: `${where.location.prefix}${name}/` } };
  return { ...where, location: below(where.location, name) };
}

/** The location as the user would write it. */
export function describeStorage(where: StorageLocation): string {
  if (where.kind === 'azure') return `azure://${where.location.container}/${where.location.prefix}`;
  return where.kind === 'folder' ? where.folder : s3Url(where.location);
}

// The S3 and Azure modules load their SDKs: they are imported only when used, so a folder run starts as before.

/** Runs `work` with the backup target for the location, metered on `backup`, and closes the target after. */
export async function withBackupTarget<T>(
  where: StorageLocation,
  backup: Stats,
  work: (target: BackupTarget) => Promise<T>,
): Promise<T> {
  let target: BackupTarget;
  if (where.kind === 'folder') target = fileBackupTarget(where.folder, backup);
  else if (where.kind === 'azure')
    target = (await import('./azure-storage.js')).azureBackupTarget(where.location, backup);
  else target = (await import('./s3-storage.js')).s3BackupTarget(where.location, where.connection, backup);
  try {
    return await work(target);
  } finally {
    await target.close();
  }
}

/** Runs `work` with the restore source for the location, metered on `restore`, and closes the source after. */
export async function withRestoreSource<T>(
  where: StorageLocation,
  restore: Stats,
  work: (source: RestoreSource) => Promise<T>,
): Promise<T> {
  let source: RestoreSource;
  if (where.kind === 'folder') source = fileRestoreSource(where.folder, restore);
  else if (where.kind === 'azure')
    source = (await import('./azure-storage.js')).azureRestoreSource(where.location, restore);
  else source = (await import('./s3-storage.js')).s3RestoreSource(where.location, where.connection, restore);
  try {
    return await work(source);
  } finally {
    await source.close();
  }
}

/** The bytes a backup takes in its storage: every file of the folder, every object or blob under the prefix. */
export async function storageSize(where: StorageLocation): Promise<number> {
  if (where.kind === 'folder') return (await listTree(where.folder)).bytes;
  if (where.kind === 'azure') return (await import('./azure-storage.js')).sizeOfAzurePrefix(where.location);
  const { sizeOfS3Prefix } = await import('./s3-storage.js');
  return sizeOfS3Prefix(where.location, where.connection);
}

/** Deletes the backup at the location. */
export async function removeStorage(where: StorageLocation): Promise<void> {
  if (where.kind === 'folder') return removeFolder(where.folder);
  if (where.kind === 'azure') return (await import('./azure-storage.js')).removeAzurePrefix(where.location);
  const { removeS3Prefix } = await import('./s3-storage.js');
  return removeS3Prefix(where.location, where.connection);
}
