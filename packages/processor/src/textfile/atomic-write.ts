import { readdirSync, unlinkSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { temporaryName, temporaryPattern } from './textfile-path.js';

/** Readable by everyone: node_exporter usually runs as a user of its own. */
const FILE_MODE = 0o644;
let written = 0;

/**
 * Replaces `path` with `text` so that a reader sees the previous complete file or the new complete file, never a
 * part: the text goes to a temporary file in the same directory, is flushed to the disk (fsync), and is renamed
 * over `path` (atomic within one file system); then the directory is synced, so that the rename survives a crash
 * of the machine too. A process killed in the middle leaves at most its temporary file, whose name node_exporter
 * does not read and which {@link removeStaleTemporaries} removes at the next start.
 *
 * @throws (rejects) the system's error; the temporary file is removed then.
 */
export async function writeAtomically(path: string, text: string): Promise<void> {
  written++;
  const temporary = temporaryName(path, `${process.pid}-${written}`);
  const file = await open(temporary, 'wx', FILE_MODE);
  try {
    // The mode given to open is reduced by the umask; node_exporter must be able to read the file whatever it is.
    await file.chmod(FILE_MODE);
    await file.writeFile(text, 'utf8');
    await file.sync();
    await file.close();
    await rename(temporary, path);
  } catch (error) {
    await file.close().catch(() => {});
    await unlink(temporary).catch(() => {});
    throw error;
  }
  await syncDirectory(dirname(path));
}

/** Makes a rename durable; a file system that cannot sync a directory (some network ones) is left as it is. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch(() => undefined);
  if (handle === undefined) return;
  await handle.sync().catch(() => {});
  await handle.close().catch(() => {});
}

/**
 * Removes the temporary files of `path` left by processes that no longer run (killed in the middle of a write):
 * node_exporter never reads them, but they would pile up. A process still running keeps its own.
 */
export function removeStaleTemporaries(path: string): void {
  const pattern = temporaryPattern(path);
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = pattern.exec(name)?.[1];
    if (pid === undefined || isRunning(Number(pid))) continue;
    try {
      unlinkSync(join(dirname(path), name));
    } catch {
      // Removed by another process meanwhile, or not ours to remove: either way nothing to do.
    }
  }
}

/** Whether `pid` runs; this process's own is not, as its temporaries here are a previous process's with the same id. */
export function isRunning(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as { code?: unknown }).code === 'EPERM';
  }
}
