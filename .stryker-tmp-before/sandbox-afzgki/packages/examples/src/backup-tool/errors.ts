/** Exit codes of the backup tool, so that a script can tell what went wrong without reading the message. */
// @ts-nocheck

export const ExitCode = Object.freeze({
  /** Everything worked. */
  Ok: 0,
  /** A bug or an error of a kind not listed here. */
  Unexpected: 1,
  /** The command line is wrong (unknown flag, bad value). */
  Usage: 2,
  /** The folder or a file to back up is missing or cannot be read. */
  Source: 3,
  /** The storage or restore folder cannot be written (full, read-only, not a folder, not empty). */
  Destination: 4,
  /** The backup is damaged: unreadable manifest, corrupted or missing archive, checksum mismatch. */
  Corrupted: 5,
  /** The S3 endpoint cannot be reached (connection refused, unknown host, time-out). */
  StorageUnreachable: 6,
  /** The S3 bucket does not exist. */
  BucketMissing: 7,
  /** S3 denied access (wrong or missing credentials, no permission). */
  AccessDenied: 8,
} as const);

/** An error the tool explains itself: one line naming the file, and the exit code to end with. */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ToolError';
  }
}

/** The errno code of a Node system error, if it is one. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

const REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'does not exist',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'the file system is read-only',
  EISDIR: 'is a folder, not a file',
  ENOTDIR: 'a part of the path is not a folder',
  EEXIST: 'already exists',
  EMFILE: 'too many open files',
  EIO: 'input/output error',
};

/** A short reason for a system error ("permission denied (EACCES)"), or its message. */
export function reason(error: unknown): string {
  const code = errorCode(error);
  if (code !== undefined && code in REASONS) return `${REASONS[code]} (${code})`;
  return error instanceof Error ? error.message : String(error);
}

/** Wraps a system error met while reading `path` from the source tree. */
export function sourceError(path: string, error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  return new ToolError(`cannot read source file ${path}: ${reason(error)}`, ExitCode.Source, { cause: error });
}

/** Wraps a system error met while writing `path`. */
export function destinationError(path: string, error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  return new ToolError(`cannot write ${path}: ${reason(error)}`, ExitCode.Destination, { cause: error });
}

/** Wraps an error met while reading a backup's `path` (missing archive, bad compressed data). */
export function corruptedError(path: string, error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  const code = errorCode(error);
  const why =
    code?.startsWith('Z_') || code?.startsWith('ERR_')
      ? `corrupted archive (${code}: ${(error as Error).message})`
      : reason(error);
  return new ToolError(`cannot restore from ${path}: ${why}`, ExitCode.Corrupted, { cause: error });
}
