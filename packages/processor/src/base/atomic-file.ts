import { close, fchmod, fsync, openSync, readdirSync, unlinkSync, writeFile } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

/**
 * The name of a temporary file next to `path`: in the same directory (so that the rename is atomic), starting with
 * a dot and ending in `.tmp`, so that a reader of the directory's `*.prom` or `*.html` never reads one half written.
 * `tag` starts with the writing process's id, which {@link removeStaleTemporaries} reads back.
 */
export function temporaryName(path: string, tag: string): string {
  return resolve(dirname(path), `.${basename(path)}.${tag}.tmp`);
}

/**
 * Matches the temporary names of `path` ({@link temporaryName}), the process id first in the tag; the id may also be
 * followed by a dot, as in the names earlier versions of the report's write used.
 */
export function temporaryPattern(path: string): RegExp {
  const escaped = basename(path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^\\.${escaped}\\.(\\d+)[-.][^/]*\\.tmp$`);
}

/** The options of {@link writeAtomically}. */
export interface AtomicWriteOptions {
  /** The file's mode whatever the umask (node_exporter, a user of its own, must read a textfile); else the umask's. */
  readonly mode?: number;
}

let written = 0;

/** Per absolute path, the end of the last write asked for: each write starts once the one before it has ended. */
const queues = new Map<string, Promise<void>>();

/** The temporary files being written now; removed if the process exits before their rename. */
const temporaries = new Set<string>();
let exitListened = false;

/**
 * Removes the temporary files of the writes under way, for a process about to end in their middle: `exit` calls it,
 * and what ends the process by a signal, which emits no `exit`, calls it first.
 */
export function removeWritesInProgress(): void {
  for (const temporary of temporaries) {
    try {
      unlinkSync(temporary);
    } catch {
      // Renamed or removed meanwhile.
    }
  }
}

/**
 * Replaces `path` with `text` so that a reader sees the previous complete file or the new complete file, never a
 * part: the text goes to a temporary file in the same directory, is flushed to the disk (fsync), and is renamed
 * over `path` (atomic within one file system); then the directory is synced, so that the rename survives a crash
 * of the machine too. The writes of this process to one path happen one at a time in the order they were asked
 * for, so the last one asked for is the one left, however long an earlier one takes. A process killed in the
 * middle leaves at most its temporary file, which {@link removeStaleTemporaries} removes later.
 *
 * @throws (rejects) the system's error; the temporary file is removed then.
 */
export function writeAtomically(path: string, text: string, options: AtomicWriteOptions = {}): Promise<void> {
  const absolute = resolve(path);
  const writing = (queues.get(absolute) ?? Promise.resolve()).then(() => replace(absolute, text, options.mode));
  const ended = writing.then(
    () => {},
    () => {},
  );
  queues.set(absolute, ended);
  // The last write of a path leaves no entry behind: a process writing many paths keeps no memory of them.
  void ended.then(() => {
    if (queues.get(absolute) === ended) queues.delete(absolute);
  });
  return writing;
}

const writeFd = promisify(writeFile);
const fsyncFd = promisify(fsync);
const closeFd = promisify(close);
const chmodFd = promisify(fchmod);

async function replace(path: string, text: string, mode: number | undefined): Promise<void> {
  written++;
  const temporary = temporaryName(path, `${process.pid}-${written}`);
  if (!exitListened) {
    exitListened = true;
    process.once('exit', removeWritesInProgress);
  }
  // Created on this thread, not in the thread pool: a removal of the writes in progress (at exit, or before the
  // process ends itself by a signal) then always finds the file it knows of. An asynchronous open could create it
  // just after the removal had found nothing, and leave it behind the dead process.
  const fd = openSync(temporary, 'wx', mode ?? 0o666);
  temporaries.add(temporary);
  try {
    let isOpen = true;
    try {
      if (mode !== undefined) await chmodFd(fd, mode);
      // Stryker disable next-line StringLiteral: an empty encoding is UTF-8 too, writeFile's default
      await writeFd(fd, text, 'utf8');
      await fsyncFd(fd);
      isOpen = false;
      await closeFd(fd);
      await rename(temporary, path);
    } catch (error) {
      if (isOpen) await closeFd(fd).catch(() => {});
      await unlink(temporary).catch(() => {});
      throw error;
    }
  } finally {
    temporaries.delete(temporary);
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
 * no reader ever reads them, but they would pile up. A process still running keeps its own, and this process's
 * own stay while it writes `path`.
 */
export function removeStaleTemporaries(path: string): void {
  const absolute = resolve(path);
  const dir = dirname(absolute);
  const pattern = temporaryPattern(absolute);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const writing = queues.has(absolute);
  for (const name of names) {
    const pid = Number(pattern.exec(name)?.[1] ?? Number.NaN);
    if (Number.isNaN(pid) || isRunning(pid) || (pid === process.pid && writing)) continue;
    try {
      unlinkSync(join(dir, name));
    } catch {
      // Removed by another process meanwhile, or not ours to remove: either way nothing to do.
    }
  }
}

/**
 * Whether `pid` runs; this process's own is not, as its temporaries are a previous process's with the same id when
 * it writes no such file itself.
 */
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
