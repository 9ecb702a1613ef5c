// @ts-nocheck
import { ExitCode, ToolError } from '../errors.js';

/** The compressions the tool offers, both from Node's zlib. */
export type Compression = 'gzip' | 'brotli';
export const COMPRESSIONS: readonly Compression[] = ['gzip', 'brotli'];

/** One backed-up file. */
export interface ManifestEntry {
  /** Path relative to the backed-up folder, with `/` separators. */
  readonly path: string;
  /** Name of the compressed object in the storage folder. */
  readonly object: string;
  /** Size of the original file in bytes. */
  readonly size: number;
  /** sha256 of the original file, hex. */
  readonly sha256: string;
  /** Size of the compressed object in bytes. */
  readonly storedSize: number;
}

/** What a backup holds: written last, so a backup without one never finished. */
export interface Manifest {
  readonly format: 'backupstats-example/1';
  readonly createdAt: string;
  readonly compression: Compression;
  readonly files: readonly ManifestEntry[];
}

/** The manifest's file name in a storage folder. */
export const MANIFEST_NAME = 'MANIFEST.json';

/** Parses and checks a manifest, so that a damaged one fails with its path instead of later with a puzzle. */
export function parseManifest(text: string, path: string): Manifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ToolError(
      `cannot restore from ${path}: the manifest is not valid JSON (${(error as Error).message})`,
      ExitCode.Corrupted,
    );
  }
  const bad = (what: string): ToolError =>
    new ToolError(`cannot restore from ${path}: the manifest is damaged (${what})`, ExitCode.Corrupted);
  const manifest = value as Partial<Manifest> | null;
  if (typeof manifest !== 'object' || manifest === null || manifest.format !== 'backupstats-example/1')
    throw bad('unknown format');
  if (!COMPRESSIONS.includes(manifest.compression as Compression))
    throw bad(`unknown compression ${JSON.stringify(manifest.compression)}`);
  if (!Array.isArray(manifest.files)) throw bad('no file list');
  manifest.files.forEach((entry: Partial<ManifestEntry>, i) => {
    const ok =
      typeof entry === 'object' &&
      entry !== null &&
      isSafeRelativePath(entry.path) &&
      typeof entry.object === 'string' &&
      /^[\w.-]+$/.test(entry.object) &&
      Number.isSafeInteger(entry.size) &&
      Number.isSafeInteger(entry.storedSize) &&
      typeof entry.sha256 === 'string' &&
      /^[0-9a-f]{64}$/.test(entry.sha256);
    if (!ok) throw bad(`entry ${i + 1} of ${manifest.files?.length}`);
  });
  return manifest as Manifest;
}

/** A relative path that stays inside the restore folder. */
function isSafeRelativePath(path: unknown): path is string {
  if (typeof path !== 'string' || path === '' || path.startsWith('/') || path.includes('\\') || path.includes('\0'))
    return false;
  return path.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}
