// @ts-nocheck
import { opendir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { ExitCode, reason, sourceError, ToolError } from '../errors.js';

/** A regular file found under the folder to back up. */
export interface SourceFile {
  readonly absolute: string;
  /** Relative path with `/` separators, as the manifest stores it. */
  readonly path: string;
  readonly size: number;
}

/** What {@link listTree} found. */
export interface Tree {
  readonly files: SourceFile[];
  readonly bytes: number;
  /** Entries that are not regular files or folders (links, sockets…): not backed up, reported. */
  readonly skipped: string[];
}

/** Lists the regular files under `root`, sorted by path; fails with the path when `root` is not a readable folder. */
export async function listTree(root: string): Promise<Tree> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(root);
  } catch (error) {
    throw new ToolError(`source folder ${root} cannot be read: ${reason(error)}`, ExitCode.Source, { cause: error });
  }
  if (!info.isDirectory()) throw new ToolError(`source ${root} is not a folder`, ExitCode.Source);
  const files: SourceFile[] = [];
  const skipped: string[] = [];
  await walk(root, root, files, skipped);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, bytes: files.reduce((n, f) => n + f.size, 0), skipped };
}

async function walk(root: string, folder: string, files: SourceFile[], skipped: string[]): Promise<void> {
  let dir: Awaited<ReturnType<typeof opendir>>;
  try {
    dir = await opendir(folder);
  } catch (error) {
    throw sourceError(folder, error);
  }
  for await (const entry of dir) {
    const absolute = join(folder, entry.name);
    if (entry.isDirectory()) {
      await walk(root, absolute, files, skipped);
    } else if (entry.isFile()) {
      let size: number;
      try {
        size = (await stat(absolute)).size;
      } catch (error) {
        throw sourceError(absolute, error);
      }
      files.push({ absolute, path: relative(root, absolute).split(sep).join('/'), size });
    } else {
      skipped.push(absolute);
    }
  }
}
