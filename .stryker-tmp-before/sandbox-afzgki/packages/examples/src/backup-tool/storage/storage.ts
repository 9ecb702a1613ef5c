// @ts-nocheck
import type { Readable, Writable } from 'node:stream';
import type { ToolError } from '../errors.js';

/** An object being written: the data goes into `stream`; `finish` makes it durable, `abort` drops it. */
export interface ObjectWriter {
  readonly stream: Writable;
  /** Waits until the object is stored and returns its stored size in bytes. */
  finish(): Promise<number>;
  /** Drops a half-written object (safe after a failure, and more than once). */
  abort(): Promise<void>;
}

/** An object being read: the data comes out of `stream`; `close` releases it (safe more than once). */
export interface ObjectReader {
  readonly stream: Readable;
  close(): Promise<void>;
}

/** Where a backup goes: a folder or an S3 bucket and prefix. Created per run with the family's stats. */
export interface BackupTarget {
  /** The storage as the user named it, for messages. */
  readonly location: string;
  /** Checks that the storage can take a new backup (reachable, writable, holding no backup yet). */
  prepare(): Promise<void>;
  create(object: string): Promise<ObjectWriter>;
  writeManifest(text: string): Promise<void>;
  /** Explains an error met while writing `object` (or the storage itself when undefined). */
  writeError(object: string | undefined, error: unknown): ToolError;
  /** Releases connections; the storage is not used afterwards. */
  close(): Promise<void>;
}

/** Where a backup is restored from. */
export interface RestoreSource {
  readonly location: string;
  readManifest(): Promise<string>;
  /** The manifest's name, for messages (a path or an s3:// URL). */
  readonly manifestName: string;
  open(object: string): Promise<ObjectReader>;
  /** An object's name for messages (a path or an s3:// URL). */
  nameOf(object: string): string;
  /**
   * Explains an error met while reading `object` (the manifest when undefined); a damaged or missing object
   * is exit code 5.
   */
  readError(object: string | undefined, error: unknown): ToolError;
  close(): Promise<void>;
}
