// The copy of `backupstats meter`, run in a worker thread: blocking readSync / writeSync on fds 0 and 1 with one
// buffer. A pipe stage does nothing else, and blocking calls make the two waits exact (the time inside read is the
// wait for the stage before, the time inside write the wait for the stage after) at two clock reads per chunk. The
// numbers go into shared memory that the main thread reads on its timer, so the meter reports and redraws its
// progress line while the copy is blocked, and a meter killed mid-copy loses only what its last report missed.
import { readSync, writeSync } from 'node:fs';

/** The cells of the shared numbers, as Float64Array indexes. */
export const CELL = {
  reads: 0,
  bytesIn: 1,
  inputWaitMs: 2,
  writes: 3,
  bytesOut: 4,
  outputWaitMs: 5,
  /** Unix ms of the first byte in, 0 before. */
  firstByteAt: 6,
  /** Unix ms when the read or write in progress started, 0 when none is. */
  waitingSince: 7,
  /** 1 while a read is in progress, 2 while a write is. */
  waitingOn: 8,
} as const;
export const CELLS = 9;

/** Int32Array indexes: the sequence number (odd while the worker writes the cells), the end, and the start. */
export const SEQUENCE = 0;
/** 0 while copying; 1 at the end of the input; 2 when the output closed (EPIPE); 3 on another error. */
export const END = 1;
export const END_INPUT = 1;
export const END_EPIPE = 2;
export const END_ERROR = 3;
/**
 * 0 until the main thread lets the copy start, 1 then, 2 when the meter ends without copying: the worker starts up
 * while the main thread connects to its run or builds its own stats, and copies nothing before the meter is set.
 */
export const GO = 2;
export const CONTROLS = 3;
export const GO_COPY = 1;
export const GO_NEVER = 2;

const CHUNK_BYTES = 1024 * 1024;

/** Unix time in ms, comparable between threads (each thread has its own `performance.timeOrigin`). */
export const unixNow = (): number => performance.timeOrigin + performance.now();

/** Copies fd 0 to fd 1 to the end, keeping the numbers in `cells` under the sequence lock of `control`. */
export function copyLoop(
  cells: Float64Array,
  control: Int32Array,
  onFirstByte: () => void,
): { end: number; message?: string } {
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const sleep = new Int32Array(new SharedArrayBuffer(4));
  const begin = (on: number, at: number) => {
    Atomics.add(control, SEQUENCE, 1);
    cells[CELL.waitingSince] = at;
    cells[CELL.waitingOn] = on;
    Atomics.add(control, SEQUENCE, 1);
  };
  // The end of one chunk's write is the start of the next chunk's read: one clock read less per chunk.
  let before = unixNow();
  for (;;) {
    begin(1, before);
    let read: number;
    try {
      read = readSync(0, buffer, 0, CHUNK_BYTES, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        // A non-blocking fd with nothing yet: wait 1 ms, counted as waiting for input.
        Atomics.wait(sleep, 0, 0, 1);
        const now = unixNow();
        add(cells, control, CELL.inputWaitMs, now - before);
        before = now;
        continue;
      }
      if (code === 'EOF') return { end: END_INPUT };
      return { end: END_ERROR, message: `reading stdin failed: ${(error as Error).message}` };
    }
    const got = unixNow();
    Atomics.add(control, SEQUENCE, 1);
    cells[CELL.inputWaitMs] = (cells[CELL.inputWaitMs] as number) + (got - before);
    cells[CELL.waitingSince] = got;
    cells[CELL.waitingOn] = read === 0 ? 0 : 2;
    if (read > 0) {
      if (cells[CELL.firstByteAt] === 0) cells[CELL.firstByteAt] = got;
      cells[CELL.reads] = (cells[CELL.reads] as number) + 1;
      cells[CELL.bytesIn] = (cells[CELL.bytesIn] as number) + read;
    }
    Atomics.add(control, SEQUENCE, 1);
    if (read === 0) return { end: END_INPUT };
    if (cells[CELL.reads] === 1) onFirstByte();
    let offset = 0;
    let writes = 0;
    let failure: { end: number; message?: string } | undefined;
    while (offset < read) {
      try {
        offset += writeSync(1, buffer, offset, read - offset);
        writes++;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN') {
          Atomics.wait(sleep, 0, 0, 1);
          continue;
        }
        failure =
          code === 'EPIPE'
            ? { end: END_EPIPE }
            : { end: END_ERROR, message: `writing stdout failed: ${(error as Error).message}` };
        break;
      }
    }
    const wrote = unixNow();
    Atomics.add(control, SEQUENCE, 1);
    cells[CELL.outputWaitMs] = (cells[CELL.outputWaitMs] as number) + (wrote - got);
    cells[CELL.writes] = (cells[CELL.writes] as number) + writes;
    cells[CELL.bytesOut] = (cells[CELL.bytesOut] as number) + offset;
    cells[CELL.waitingSince] = 0;
    cells[CELL.waitingOn] = 0;
    Atomics.add(control, SEQUENCE, 1);
    if (failure !== undefined) return failure;
    before = wrote;
  }
}

function add(cells: Float64Array, control: Int32Array, cell: number, amount: number): void {
  Atomics.add(control, SEQUENCE, 1);
  cells[cell] = (cells[cell] as number) + amount;
  cells[CELL.waitingSince] = 0;
  cells[CELL.waitingOn] = 0;
  Atomics.add(control, SEQUENCE, 1);
}

/**
 * A consistent copy of the cells: read while the sequence number is even and unchanged, as the worker writes them
 * between two increments. The wait in progress is counted up to `now` (Unix ms), as if it ended then.
 */
export function readCells(cells: Float64Array, control: Int32Array, now: number): Float64Array {
  const copy = new Float64Array(CELLS);
  for (;;) {
    const before = Atomics.load(control, SEQUENCE);
    if (before % 2 === 0) {
      copy.set(cells);
      if (Atomics.load(control, SEQUENCE) === before) break;
    }
  }
  const since = copy[CELL.waitingSince] as number;
  if (since > 0) {
    const cell = copy[CELL.waitingOn] === 1 ? CELL.inputWaitMs : CELL.outputWaitMs;
    copy[cell] = (copy[cell] as number) + Math.max(0, now - since);
  }
  return copy;
}
