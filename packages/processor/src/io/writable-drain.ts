/** The parts of Node's internal writable state that tell whether a callback drains the buffer first. */
export interface WritableStateView {
  readonly bufferedRequestCount: number;
  readonly corked: number;
}

/** Reads the writable state of a stream once, at metering time; undefined for a stream that has none. */
export function writableStateOf(stream: object): WritableStateView | undefined {
  const state = (stream as { _writableState?: unknown })._writableState;
  // Stryker disable next-line ConditionalExpression,LogicalOperator: no accepted stream has a null or primitive state
  return typeof state === 'object' && state !== null ? (state as WritableStateView) : undefined;
}

/**
 * True when, during a successful callback of the write in flight, the first write Node starts (if any) is
 * the next buffered one, started before any other code runs: the end of this write and the start of that
 * one are then the same instant.
 *
 * Node's `onwrite` (lib/internal/streams/writable.js, read in Node 20 and 22 and in readable-stream 4) checks
 * the callback, updates its counters and, when chunks are buffered, calls `clearBuffer` before anything else;
 * `clearBuffer` hands the first buffered chunk (or, with `_writev`, all of them) to `_write` / `_writev`
 * unless the stream is corked (or destroyed, or already inside `clearBuffer`, where it starts nothing). Only
 * after that come `afterWrite`, the write callbacks and `'drain'`, user code that may itself write or
 * uncork. So with chunks buffered and the stream not corked, no other code can start a write first; the
 * meters act on the answer only while Node's callback runs, and the next write reads the clock otherwise.
 */
export function drainsNextWrite(state: WritableStateView | undefined): boolean {
  // `state !== undefined` → `true` is an equivalent mutant (only an object whose write() Node cannot run has no
  // state); not disabled, so that the mutants of the buffer and cork checks stay tested.
  return state !== undefined && state.bufferedRequestCount > 0 && state.corked === 0;
}
