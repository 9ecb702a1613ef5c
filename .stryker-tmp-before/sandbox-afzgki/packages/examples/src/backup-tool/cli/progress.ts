// @ts-nocheck
import { Presets, SingleBar } from 'cli-progress';
import { formatBytes, formatDuration, formatRate } from './format.js';

/** Reports how far a backup or restore has got. */
export interface Progress {
  /** Starts a phase of `totalBytes` over `totalFiles` files. */
  start(phase: string, totalBytes: number, totalFiles: number): void;
  /** Counts bytes done in the current phase. */
  advance(bytes: number): void;
  /** Counts one finished file. */
  fileDone(): void;
  /** Ends the current phase (its last line stays on screen). */
  stop(): void;
}

/**
 * On a terminal, a progress bar (cli-progress) with bytes done, throughput and ETA, redrawn in place; otherwise
 * plain lines, one every `intervalMs` and one at the end, so logs of CI jobs stay readable. Writes to stderr,
 * leaving stdout to the summary.
 */
export function createProgress(stream: NodeJS.WriteStream = process.stderr, intervalMs = 2000): Progress {
  return stream.isTTY ? barProgress(stream) : lineProgress(stream, intervalMs);
}

/** A progress that shows nothing (`--quiet`). */
export const silentProgress: Progress = { start() {}, advance() {}, fileDone() {}, stop() {} };

interface PhaseState {
  phase: string;
  totalBytes: number;
  totalFiles: number;
  bytes: number;
  files: number;
  started: number;
}

function newState(phase: string, totalBytes: number, totalFiles: number): PhaseState {
  return { phase, totalBytes, totalFiles, bytes: 0, files: 0, started: performance.now() };
}

function barProgress(stream: NodeJS.WriteStream): Progress {
  let bar: SingleBar | undefined;
  let timer: NodeJS.Timeout | undefined;
  let state = newState('', 0, 0);
  const payload = () => {
    const seconds = (performance.now() - state.started) / 1000;
    const rate = seconds > 0 ? state.bytes / seconds : 0;
    return {
      phase: state.phase.padEnd(7),
      done: formatBytes(state.bytes).padStart(9),
      size: formatBytes(state.totalBytes),
      speed: formatRate(state.bytes, seconds).padStart(11),
      // From the average so far, '?' before any data (cli-progress's own {eta} token is a bare number).
      remaining: rate > 0 ? formatDuration((state.totalBytes - state.bytes) / rate) : '?',
      files: `${state.files}/${state.totalFiles}`,
    };
  };
  const redraw = () => bar?.update(state.bytes, payload());
  return {
    start(phase, totalBytes, totalFiles) {
      state = newState(phase, totalBytes, totalFiles);
      bar = new SingleBar(
        {
          stream,
          format: '{phase} {bar} {percentage}% | {done} of {size} | {speed} | ETA {remaining} | {files} files',
          hideCursor: true,
          barsize: 30,
          fps: 10,
        },
        Presets.shades_classic,
      );
      bar.start(Math.max(totalBytes, 1), 0, payload());
      // Redrawn on a timer, ten times a second: per-chunk work stays one addition.
      timer = setInterval(redraw, 100);
      timer.unref();
    },
    advance(bytes) {
      state.bytes += bytes;
    },
    fileDone() {
      state.files += 1;
    },
    stop() {
      clearInterval(timer);
      redraw();
      bar?.stop();
      bar = undefined;
    },
  };
}

function lineProgress(stream: NodeJS.WriteStream, intervalMs: number): Progress {
  let state = newState('', 0, 0);
  let timer: NodeJS.Timeout | undefined;
  const line = (final: boolean) => {
    const elapsed = (performance.now() - state.started) / 1000;
    const percent = state.totalBytes > 0 ? Math.floor((100 * state.bytes) / state.totalBytes) : 100;
    const rate = elapsed > 0 ? state.bytes / elapsed : 0;
    const eta = final
      ? `done in ${elapsed.toFixed(1)} s`
      : `ETA ${rate > 0 ? formatDuration((state.totalBytes - state.bytes) / rate) : '?'}`;
    stream.write(
      `${state.phase}: ${percent}% ${formatBytes(state.bytes)} of ${formatBytes(state.totalBytes)}, ` +
        `${formatRate(state.bytes, elapsed)}, ${eta}, ${state.files}/${state.totalFiles} files\n`,
    );
  };
  return {
    start(phase, totalBytes, totalFiles) {
      state = newState(phase, totalBytes, totalFiles);
      stream.write(`${phase}: ${totalFiles} files, ${formatBytes(totalBytes)}\n`);
      // A timer, not a clock check per chunk; unref'd so that it never keeps the tool alive.
      timer = setInterval(() => line(false), intervalMs);
      timer.unref();
    },
    advance(bytes) {
      state.bytes += bytes;
    },
    fileDone() {
      state.files += 1;
    },
    stop() {
      clearInterval(timer);
      line(true);
    },
  };
}
