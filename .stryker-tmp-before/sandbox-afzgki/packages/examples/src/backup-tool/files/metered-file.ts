// @ts-nocheck
import type { ReadStream, WriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { meterReadable, meterWritable, timeAsync } from 'backupstats';
import type { FileScopes } from '../telemetry/scopes.js';

/** An open file with a metered stream over it; `close()` is timed and safe to call more than once. */
export interface MeteredFile<S> {
  readonly path: string;
  readonly stream: S;
  close(): Promise<void>;
}

/**
 * Opens `path` for reading (timed as the scope's Open), with a metered read stream (its Read) and a timed
 * close (its Close). The stream does not close the file when it ends, so that closing is measured on its own.
 */
export async function openForReading(path: string, scopes: FileScopes): Promise<MeteredFile<ReadStream>> {
  const handle = await timeAsync(scopes.open, () => open(path, 'r'));
  const stream = meterReadable(handle.createReadStream({ autoClose: false, highWaterMark: 256 * 1024 }), scopes.data);
  return { path, stream, close: closer(stream, scopes) };
}

/**
 * Creates `path` for writing (it must not exist yet), with a metered write stream and a timed close. A file
 * left half-written by a failure is the caller's to remove.
 */
export async function openForWriting(path: string, scopes: FileScopes): Promise<MeteredFile<WriteStream>> {
  const handle = await timeAsync(scopes.open, () => open(path, 'wx'));
  const stream = meterWritable(handle.createWriteStream({ autoClose: false, highWaterMark: 256 * 1024 }), scopes.data);
  return { path, stream, close: closer(stream, scopes) };
}

/**
 * Closing goes through the stream: it holds a reference on the FileHandle, so `handle.close()` would wait for
 * the stream forever, while destroying the stream releases and closes the handle.
 */
function closer(stream: ReadStream | WriteStream, scopes: FileScopes): () => Promise<void> {
  let closing: Promise<void> | undefined;
  // destroy() closes the file whatever autoClose says; a failed close arrives as 'error' before 'close'.
  const emitter: NodeJS.EventEmitter = stream;
  const close = () =>
    new Promise<void>((resolve, reject) => {
      if (stream.closed) {
        resolve();
        return;
      }
      // Destroyed already (a failed pipeline destroys every stream with its error): the error that stream emits is
      // the pipeline's, reported by it, not a failure to close. Only the end of the close is waited for.
      if (stream.destroyed) {
        emitter.once('close', () => resolve());
        return;
      }
      emitter.once('error', reject);
      emitter.once('close', () => resolve());
      stream.destroy();
    });
  // Vitess records Close even when it fails: a failed close is still time spent.
  return () => {
    closing ??= timeAsync(scopes.close, close, { recordFailures: true });
    return closing;
  };
}
