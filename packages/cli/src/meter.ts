// `backupstats meter`: a pipeline stage that copies stdin to stdout unchanged and measures the two waits.
//
// The copy is a loop of blocking readSync / writeSync on fds 0 and 1 with one buffer: a pipe stage does nothing else,
// and blocking calls make the two waits exact (the time inside read is the wait for the stage before, the time
// inside write the wait for the stage after) at four clock reads per chunk. Reports and the progress line go out
// between chunks, once the flush interval has passed; a net.Socket write to the run's channel is attempted at once
// (libuv tries the write before it queues), so reports leave even though the loop does not yield.
import { readSync, writeSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { parseArgs } from 'node:util';
import { encodeReport, type MeterReport, RUN_SOCKET_VARIABLE } from './channel.js';
import { DEFAULT_LABELS, type Labels, parseBytes, parseLabels, UsageError } from './options.js';
import { progressLine } from './progress.js';
import { StageRecorder } from './stage-recorder.js';

export const METER_USAGE = `Usage: backupstats meter --operation OP [options]

A pipeline stage: copies stdin to stdout unchanged and records the bytes, the time it waited for its input (the
stage before it is slower) and the time it waited for its output to drain (the stage after it is slower).

  --operation OP         the stage that writes into this meter, e.g. Source:Read, Compressor:Write (required)
  --label name=value     component or implementation of its series (repeatable)
  --size N               the bytes expected (K, M, G, T suffixes): the progress line adds percent and time left
  --quiet, -q            no progress line (shown only when stderr is a terminal)
  --help, -h             this text

Inside \`backupstats run\` it reports to the run (${RUN_SOCKET_VARIABLE}); alone, it exports by itself through
the OTEL_* and BACKUPSTATS_* variables, as startBackupStats() does. Exit status: 0 at the end of its input; killed by
SIGPIPE, as a pipeline stage is, when its output closes early; 1 on a read or write error; 2 on a bad command line.`;

/** How often the meter reports to its run and redraws its progress line. */
export const FLUSH_INTERVAL_MS = 500;

const CHUNK_BYTES = 1024 * 1024;

interface Options {
  readonly operation: string;
  readonly labels: Labels;
  readonly size: number | undefined;
  readonly quiet: boolean;
}

export function parseMeterArgs(args: string[]): Options | 'help' {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      operation: { type: 'string' },
      label: { type: 'string', multiple: true },
      size: { type: 'string' },
      quiet: { type: 'boolean', short: 'q' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  if (positionals.length > 0) {
    throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}: meter reads stdin and writes stdout`);
  }
  const operation = values.operation;
  if (operation === undefined || operation.trim() === '') {
    throw new UsageError('--operation is required: the stage that writes into this meter, e.g. Compressor:Write');
  }
  return {
    operation,
    labels: parseLabels(values.label),
    size: parseBytes('--size', values.size),
    quiet: values.quiet === true,
  };
}

/** Where the numbers go: the parent run, or stats of the meter's own. */
interface Sink {
  report(report: MeterReport): void;
  close(): Promise<void>;
}

export async function meterCommand(args: string[]): Promise<number> {
  const options = parseMeterArgs(args);
  if (options === 'help') {
    process.stdout.write(`${METER_USAGE}\n`);
    return 0;
  }
  const socketPath = process.env[RUN_SOCKET_VARIABLE];
  const sink = socketPath ? await runSink(socketPath) : await ownSink(options);
  const result = copy(options, sink);
  await sink.close();
  if (result === 'EPIPE') diesOfSigpipe();
  return result;
}

const waitCell = new Int32Array(new SharedArrayBuffer(4));

/** Sleeps the thread 1 ms: the wait of a read or write that found a non-blocking fd not ready (EAGAIN). */
function pause(): void {
  Atomics.wait(waitCell, 0, 0, 1);
}

function copy(options: Options, sink: Sink): number | 'EPIPE' {
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const started = performance.now();
  const id = `${process.pid}.${Math.round(performance.timeOrigin)}`;
  const progress = process.stderr.isTTY === true && !options.quiet;
  let reads = 0;
  let writes = 0;
  let bytesIn = 0;
  let bytesOut = 0;
  let inputWaitMs = 0;
  let outputWaitMs = 0;
  let firstByteAt: number | null = null;
  let nextFlush = started + FLUSH_INTERVAL_MS;
  let lastFlush = started;
  let lastBytes = 0;
  let rate = 0;
  const report = (done: boolean): MeterReport => ({
    id,
    operation: options.operation,
    component: options.labels.component,
    implementation: options.labels.implementation,
    firstByteAt,
    startedAt: performance.timeOrigin + started,
    reads,
    bytesIn,
    inputWaitMs,
    writes,
    bytesOut,
    outputWaitMs,
    done,
  });
  const flush = (now: number, done: boolean) => {
    sink.report(report(done));
    if (now > lastFlush) rate = ((bytesOut - lastBytes) * 1000) / (now - lastFlush);
    lastFlush = now;
    lastBytes = bytesOut;
    if (progress) {
      const line = progressLine(options.operation, bytesOut, rate, (now - started) / 1000, options.size);
      writeSync(2, `\r${line}\x1b[K${done ? '\n' : ''}`);
    }
  };
  // The run learns of the meter before any data reaches it, so it knows every meter before the ones after it.
  sink.report(report(false));
  let outcome: number | 'EPIPE' = 0;
  loop: for (;;) {
    const before = performance.now();
    let read: number;
    try {
      read = readSync(0, buffer, 0, CHUNK_BYTES, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        pause();
        inputWaitMs += performance.now() - before;
        continue;
      }
      if (code === 'EOF') break;
      process.stderr.write(`\nbackupstats meter: reading stdin failed: ${(error as Error).message}\n`);
      outcome = 1;
      break;
    }
    const got = performance.now();
    inputWaitMs += got - before;
    if (read === 0) break;
    if (firstByteAt === null) {
      firstByteAt = performance.timeOrigin + got;
      // At once: the run orders its meters by their first bytes.
      sink.report(report(false));
    }
    reads++;
    bytesIn += read;
    let offset = 0;
    while (offset < read) {
      try {
        offset += writeSync(1, buffer, offset, read - offset);
        writes++;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN') {
          pause();
          continue;
        }
        bytesOut += offset;
        outputWaitMs += performance.now() - got;
        if (code === 'EPIPE') outcome = 'EPIPE';
        else {
          process.stderr.write(`\nbackupstats meter: writing stdout failed: ${(error as Error).message}\n`);
          outcome = 1;
        }
        break loop;
      }
    }
    const wrote = performance.now();
    outputWaitMs += wrote - got;
    bytesOut += read;
    if (wrote >= nextFlush) {
      flush(wrote, false);
      nextFlush = wrote + FLUSH_INTERVAL_MS;
    }
  }
  flush(performance.now(), true);
  return outcome;
}

/**
 * Ends the process the way a pipeline stage ends when the stage after it went away: killed by SIGPIPE, so that the
 * shell (and `set -o pipefail`) sees what it sees of `cat` or `gzip`. Node.js ignores SIGPIPE; a listener added and
 * removed gives the signal back its default action.
 */
function diesOfSigpipe(): never {
  const ignore = () => {};
  process.on('SIGPIPE', ignore);
  process.off('SIGPIPE', ignore);
  process.kill(process.pid, 'SIGPIPE');
  // Not reached where the signal's default action ends the process; the shell's status for it otherwise.
  process.exit(128 + 13);
}

/** Reports to the run over its channel. A channel that fails is said once; the copy goes on regardless. */
async function runSink(path: string): Promise<Sink> {
  const socket: Socket = connect(path);
  let failed = false;
  const fail = (error: Error) => {
    if (failed) return;
    failed = true;
    process.stderr.write(`backupstats meter: cannot report to the run at ${path}: ${error.message}\n`);
  };
  socket.on('error', fail);
  await new Promise<void>((resolve) => {
    socket.once('connect', resolve);
    socket.once('error', () => resolve());
  });
  return {
    report(report) {
      if (!failed) socket.write(encodeReport(report));
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (failed) {
          socket.destroy();
          resolve();
          return;
        }
        socket.end(resolve);
        socket.once('error', () => resolve());
      }),
  };
}

/** Without a run: stats of its own from the environment, exported when it ends. */
async function ownSink(options: Options): Promise<Sink> {
  const { startBackupStats } = await import('backupstats/setup');
  const stats = await startBackupStats();
  const recorder = new StageRecorder(stats.backup, { ...DEFAULT_LABELS, ...options.labels });
  return {
    report(report) {
      const { operation, reads: count, bytesIn: bytes, inputWaitMs: busyMs } = report;
      recorder.record([{ operation, count, bytes, busyMs }]);
    },
    close: () => stats.shutdown(),
  };
}
