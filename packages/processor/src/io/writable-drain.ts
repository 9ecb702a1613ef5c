/** The parts of Node's internal writable state that tell whether a callback drains the buffer first. */
export interface WritableStateView {
  readonly bufferedRequestCount: number;
  readonly bufferProcessing: boolean;
  readonly corked: number;
  readonly destroyed: boolean;
}

/** Reads the writable state of a stream once, at metering time; undefined for a stream that has none. */
export function writableStateOf(stream: object): WritableStateView | undefined {
  const state = (stream as { _writableState?: unknown })._writableState;
  return typeof state === 'object' && state !== null ? (state as WritableStateView) : undefined;
}

/**
 * True when a successful callback of the write in flight makes Node start the next buffered write before it
 * runs any other code, so that the end of this write and the start of the next are the same instant.
 *
 * Node's `onwrite` (lib/internal/streams/writable.js, read in Node 20 and 22 and in readable-stream 4) checks
 * the callback, updates its counters and, when chunks are buffered, calls `clearBuffer` before anything else
 * (`afterWrite`, the write callbacks and `'drain'` come after). `clearBuffer` hands the first buffered chunk
 * (or, with `_writev`, all of them) to `_write` / `_writev` unless the stream is corked, destroyed or already
 * inside `clearBuffer`: this is its own test. The meters act on the answer only for the duration of Node's
 * callback, so when it is false, or when no write starts inside that callback, the next write reads the clock.
 */
export function drainsNextWrite(state: WritableStateView | undefined): boolean {
  return (
    state !== undefined && state.bufferedRequestCount > 0 && !state.bufferProcessing && state.corked === 0 && !state.destroyed
  );
}
