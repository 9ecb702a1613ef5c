// `backupstats meter`: a pipeline stage that copies stdin to stdout unchanged and measures the two waits. The copy
// runs in a worker thread (copy-loop.ts); this thread reports what it did every flush interval, to the run or to
// stats of its own, and draws the progress line.
import { writeSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { isatty } from 'node:tty';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { encodeReport, type MeterReport, RUN_SOCKET_VARIABLE } from './channel.js';
import { CELL, CELLS, CONTROLS, END_EPIPE, END_ERROR, GO, GO_COPY, GO_NEVER, readCells, unixNow } from './copy-loop.js';
import { DEFAULT_LABELS, type Labels, parseBytes, parseLabels, UsageError } from './options.js';
import { progressLine } from './progress.js';
import { StageRecorder } from './stage-recorder.js';
import { consoleToStderr } from './stderr-console.js';

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
  // The worker starts up (a thread and its own module loading) while this thread sets up where the numbers go; it
  // copies nothing before it is told to.
  const copier = startCopier();
  const socketPath = process.env[RUN_SOCKET_VARIABLE];
  let sink: Sink;
  try {
    sink = socketPath ? await runSink(socketPath) : await ownSink(options);
  } catch (error) {
    await copier.cancel();
    throw error;
  }
  const result = await copy(options, sink, copier);
  await sink.close();
  if (result === 'EPIPE') diesOfSigpipe();
  return result;
}

/** The copy's worker, started and waiting for the word to copy, and the memory it shares. */
interface Copier {
  readonly worker: Worker;
  readonly cells: Float64Array;
  readonly control: Int32Array;
  start(): void;
  cancel(): Promise<void>;
}

function startCopier(): Copier {
  const cellMemory = new SharedArrayBuffer(CELLS * 8);
  const controlMemory = new SharedArrayBuffer(CONTROLS * 4);
  const control = new Int32Array(controlMemory);
  // The copy reads and writes fds 0 and 1 itself, blocking. The meter never touches process.stdin, process.stdout
  // or process.stderr (a worker's default stdio does, to pipe its output into them): Node.js would open a pipe there
  // as a stream and make it non-blocking for every process that shares it, the copy meeting EAGAIN.
  const worker = new Worker(new URL('./meter-worker.cjs', import.meta.url), {
    workerData: { cells: cellMemory, control: controlMemory },
    stdout: true,
    stderr: true,
  });
  const tell = (go: number) => {
    Atomics.store(control, GO, go);
    Atomics.notify(control, GO);
  };
  return {
    worker,
    cells: new Float64Array(cellMemory),
    control,
    start: () => tell(GO_COPY),
    cancel: async () => {
      tell(GO_NEVER);
      await worker.terminate();
    },
  };
}

/** Copies in the worker; reports at its start, at its first byte, every interval and at its end. */
async function copy(options: Options, sink: Sink, copier: Copier): Promise<number | 'EPIPE'> {
  const { worker, cells, control } = copier;
  const startedAt = unixNow();
  const id = `${process.pid}.${Math.round(startedAt)}`;
  const progress = isatty(2) && !options.quiet;
  let lastAt = startedAt;
  let lastBytes = 0;
  let rate = 0;
  const flush = (done: boolean) => {
    const now = unixNow();
    const numbers = readCells(cells, control, now);
    const firstByteAt = numbers[CELL.firstByteAt] as number;
    const bytesOut = numbers[CELL.bytesOut] as number;
    sink.report({
      id,
      operation: options.operation,
      component: options.labels.component,
      implementation: options.labels.implementation,
      at: now,
      firstByteAt: firstByteAt === 0 ? null : firstByteAt,
      startedAt,
      reads: numbers[CELL.reads] as number,
      bytesIn: numbers[CELL.bytesIn] as number,
      inputWaitMs: numbers[CELL.inputWaitMs] as number,
      writes: numbers[CELL.writes] as number,
      bytesOut,
      outputWaitMs: numbers[CELL.outputWaitMs] as number,
      done,
    });
    if (now > lastAt) rate = ((bytesOut - lastBytes) * 1000) / (now - lastAt);
    lastAt = now;
    lastBytes = bytesOut;
    if (progress) {
      const line = progressLine(options.operation, bytesOut, rate, (now - startedAt) / 1000, options.size);
      writeSync(2, `\r${line}\x1b[K${done ? '\n' : ''}`);
    }
  };
  // The run learns of the meter before any data reaches it, so it knows every meter before the ones after it.
  flush(false);
  const timer = setInterval(() => flush(false), FLUSH_INTERVAL_MS);
  const result = await new Promise<{ end: number; message?: string }>((resolve) => {
    worker.on('message', (message: { end: number; message?: string } | 'first byte') => {
      if (message === 'first byte') flush(false);
      else resolve(message);
    });
    worker.once('error', (error) => resolve({ end: END_ERROR, message: error.message }));
    copier.start();
  });
  clearInterval(timer);
  flush(true);
  await worker.terminate();
  if (result.end === END_EPIPE) return 'EPIPE';
  if (result.end === END_ERROR) {
    writeSync(2, `backupstats meter: ${result.message ?? 'the copy failed'}\n`);
    return 1;
  }
  return 0;
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
    writeSync(2, `backupstats meter: cannot report to the run at ${path}: ${error.message}\n`);
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
  consoleToStderr();
  const { startBackupStats } = await import('./library.js');
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
