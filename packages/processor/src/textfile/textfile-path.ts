import { closeSync, constants, fstatSync, openSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { temporaryName } from '../base/atomic-file.js';
import { type ErrorCode, notAccepted, quote } from '../base/errors.js';

/** How messages word what {@link checkTextfilePath} accepts. */
export const TEXTFILE_PATH_TEXT =
  "the path of a file ending in .prom (node_exporter reads *.prom only) in an existing directory this process can write, such as node_exporter's --collector.textfile.directory";

/**
 * `value` as an absolute path of a `.prom` file whose directory exists and is writable (tried by creating and
 * removing a temporary file there, which is what every write does); `subject` names the option or variable, and
 * `code` says which of the two it is.
 *
 * @throws TypeError naming `subject`, the value and what is accepted, with the reason (the system's error).
 */
export function checkTextfilePath(code: ErrorCode, subject: string, value: unknown): string {
  const refuse = (shown: string, detail?: string): TypeError =>
    notAccepted(code, subject, shown, TEXTFILE_PATH_TEXT, detail);
  if (typeof value !== 'string' || value.trim() === '') {
    throw refuse(typeof value === 'string' ? quote(value) : `a value of type ${typeof value}`);
  }
  const shown = quote(value);
  if (!value.endsWith('.prom') || basename(value) === '.prom') throw refuse(shown, 'it does not end in .prom');
  const path = resolve(value);
  const dir = dirname(path);
  const kind = statOf(dir);
  if (kind !== 'directory') throw refuse(shown, `its directory ${dir} ${kind}`);
  if (statOf(path) === 'directory') throw refuse(shown, 'it is a directory');
  // Stryker disable next-line StringLiteral: the id lets a later run remove the probe of a process killed before it did
  const probe = temporaryName(path, `${process.pid}-probe`);
  // Stryker disable next-line BlockStatement: only a directory this process cannot write tells: test/processes/textfile-unwritable.test.ts
  try {
    closeSync(openSync(probe, 'wx', 0o644));
    unlinkSync(probe);
    // Reached in a directory this process cannot write: test/processes/textfile-unwritable.test.ts (as another user).
  } catch (error) /* Stryker disable next-line BlockStatement: see above */ {
    // Stryker disable next-line StringLiteral: see above
    throw refuse(shown, `its directory ${dir} is not writable: ${reasonOf(error)}`);
  }
  return path;
}

/** `directory`, or why `path` is not one (`does not exist`, `is not a directory`, …). */
function statOf(path: string): string {
  try {
    // BigInt stats: see readRegularFile.
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: only a fresh process shows it: test/processes/textfile-fifo.test.ts
    const stats = statSync(path, { bigint: true });
    return stats.isDirectory() ? 'directory' : 'is not a directory';
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return code === 'ENOENT' ? 'does not exist' : `cannot be read: ${reasonOf(error)}`;
  }
}

/** A system error as its message says it (`EACCES: permission denied, open '…'`). */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The text of `path` if it is a regular file (a link to one included); undefined when it is anything else (a FIFO,
 * a socket, a device, a directory), does not exist or cannot be read. Opened without blocking, then checked: a FIFO
 * opened the usual way blocks until a writer comes, which for a stray FIFO in node_exporter's directory is never.
 */
export function readRegularFile(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    // BigInt stats, because Node's fs.realpathSync reads the shared result of the last number-valued stat and
    // stops resolving links when that was a FIFO: every package imported afterwards would load from its link's path,
    // and its own dependencies would not resolve (Node 20, 22). Only a fresh process shows it:
    // test/processes/textfile-fifo.test.ts.
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: see above
    return fstatSync(fd, { bigint: true }).isFile() ? readFileSync(fd, 'utf8') : undefined;
  } catch /* Stryker disable next-line BlockStatement: an empty block returns undefined all the same */ {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
