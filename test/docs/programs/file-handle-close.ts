import { once } from 'node:events';
import { open } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import {
  Component,
  Implementation,
  meterReadable,
  meterTransform,
  meterWritable,
  Operation,
  timeAsync,
} from 'backupstats';
import { startBackupStats } from 'backupstats/setup';

const stats = await startBackupStats();
const engine = stats.backup.scope({ component: Component.BackupEngine, implementation: Implementation.Builtin });
const op = (operation: string) => engine.scope({ operation });

// A stream made from a FileHandle holds the handle until the stream is destroyed: `handle.close()` would wait for
// it (forever, with `autoClose: false`). So the close goes through the stream: destroy() closes the file.
async function closeThrough(stream: Readable | Writable): Promise<void> {
  if (stream.closed) return;
  const closed = once(stream, 'close'); // rejects with the error of a close that failed
  stream.destroy();
  await closed;
}

const source = await timeAsync(op(Operation.SourceOpen), () => open('ibdata1'));
const destination = await timeAsync(op(Operation.DestinationOpen), () => open('ibdata1.gz', 'w'));
// autoClose: false, so that the close is an operation of its own, timed below.
const reading = meterReadable(source.createReadStream({ autoClose: false }), op(Operation.SourceRead));
const writing = meterWritable(destination.createWriteStream({ autoClose: false }), op(Operation.DestinationWrite));
await pipeline(reading, meterTransform(createGzip(), op(Operation.CompressorWrite)), writing);
// Vitess records a failed close too: it is still time spent.
await timeAsync(op(Operation.SourceClose), () => closeThrough(reading), { recordFailures: true });
await timeAsync(op(Operation.DestinationClose), () => closeThrough(writing), { recordFailures: true });
console.log(`closed: ${source.fd === -1 && destination.fd === -1}`); // closed: true
await stats.shutdown();
