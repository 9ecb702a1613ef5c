import { linkSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isRunning, temporaryName } from '../base/atomic-file.js';
import { ERROR_CODES, withCode } from '../base/errors.js';
import { readRegularFile } from './textfile-path.js';

/**
 * The lock file of `path`: beside it, starting with a dot and not ending in `.prom`, so that node_exporter never
 * reads it. It holds the process id of the process that writes `path`.
 */
export function lockName(path: string): string {
  return join(dirname(path), `.${basename(path)}.lock`);
}

/** The paths this process holds the lock of, each with its lock file: released together when the process exits. */
const held = new Map<string, string>();
let exitListener = false;

/**
 * Takes the lock of `path` for this process, so that one process at a time writes a textfile: two overlapping runs
 * of one job (a cron job that overran) would replace each other's file with every export, its counters jumping
 * between the two processes' and one run's failure erased. The lock file is created with its content in one step
 * (a temporary file holding the process id, linked to the lock's name, which fails when the name exists). A lock
 * whose process no longer runs (killed, SIGKILL included, before it could remove it) is stale: it is taken over.
 * Released by the returned function, and when the process exits.
 *
 * @throws Error `BACKUPSTATS_TEXTFILE_TAKEN` when a running process, this one included (another exporter of the same
 *   file), holds the lock; `subject` names the path's option or variable. The system's error when the lock cannot
 *   be created (the directory was checked writable: this is rare).
 */
export function lockTextfile(path: string, subject: string): () => void {
  const lock = lockName(path);
  // Stryker disable next-line StringLiteral: the id lets a later run remove the file of a process killed before it did
  const temporary = temporaryName(path, `${process.pid}-lock`);
  writeFileSync(temporary, `${process.pid}\n`, { mode: 0o644 });
  try {
    // Twice at most: a stale lock is removed once, then the name is free unless another process just took it.
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(temporary, lock);
        break;
        // Reached when the link fails otherwise than on the lock's name (the directory was checked writable).
      } catch (error) /* Stryker disable next-line BlockStatement: see above */ {
        // Stryker disable next-line ConditionalExpression: see above
        if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
      }
      const holder = holderOf(lock);
      // isRunning(undefined) is false as well: `holder !== undefined` only spares the call.
      const live = holder === process.pid ? held.has(path) : holder !== undefined && isRunning(holder);
      if (live || attempt === 1) throw takenError(subject, path, lock, holder);
      removeQuietly(lock);
    }
  } finally {
    removeQuietly(temporary);
  }
  held.set(path, lock);
  // Runs at the process's exit only: test/processes/textfile-lock.test.ts, "a process that exits without shutting its
  // exporters down removes their locks as it exits". One listener or one per lock would release the same.
  // Stryker disable all: see above
  if (!exitListener) {
    exitListener = true;
    // One listener for every lock of the process; synchronous, as an exit listener must be.
    process.on('exit', () => {
      for (const [heldPath, heldLock] of held) release(heldPath, heldLock);
    });
  }
  // Stryker restore all
  let released = false;
  return () => {
    if (released) return;
    released = true;
    release(path, lock);
  };
}

/** Removes the lock of `path` if it still holds this process's id (a stale-lock takeover may have replaced it). */
function release(path: string, lock: string): void {
  // Stryker disable next-line CallExpression: a path left here is released again at exit, which checks the holder first
  held.delete(path);
  if (holderOf(lock) === process.pid) removeQuietly(lock);
}

/** The process id a lock file holds; undefined when it cannot be read, is no regular file or holds no id. */
function holderOf(lock: string): number | undefined {
  const text = readRegularFile(lock);
  // Stryker disable next-line ConditionalExpression: parseInt(undefined) is NaN, no id either
  if (text === undefined) return undefined;
  const pid = Number.parseInt(text, 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Gone already (removed by its owner, or taken over): nothing to do.
  }
}

function takenError(subject: string, path: string, lock: string, holder: number | undefined): Error {
  const who =
    holder === process.pid
      ? 'this process writes it already (another textfile exporter of the same file)'
      : `process ${holder ?? '(unknown)'} writes it (its lock file ${lock})`;
  return withCode(
    new Error(
      `backupstats: ${subject} is ${JSON.stringify(path)}, and ${who}: two runs writing one file would replace each other's series with every export. Let the running job end before starting another (a lock left by a process that no longer runs is taken over; remove the lock file if that process is no run of this job)`,
    ),
    ERROR_CODES.TEXTFILE_TAKEN,
  );
}
