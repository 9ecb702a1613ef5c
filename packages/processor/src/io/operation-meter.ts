import type { Stats } from '../api/stats.js';
import { noop } from '../base/noop.js';
import { RecordingHandle } from '../series/recording-handle.js';
import { TimingSample } from './timing-sample.js';
import { drainsNextWrite, type WritableStateView } from './writable-drain.js';

/** Node's callback for a write (`error` only) or a transformed chunk (`error`, `data`). */
export type OperationCallback = (error?: Error | null, data?: unknown) => void;

/** A stream's own `_write` or `_transform`, as the meter found it. */
export type OperationFunction = (
  this: unknown,
  chunk: unknown,
  encoding: BufferEncoding,
  cb: OperationCallback,
) => void;

/** A stream's own `_writev`, as the meter found it. */
export type WritevFunction = (
  this: unknown,
  chunks: Array<{ chunk: unknown; encoding: BufferEncoding }>,
  cb: OperationCallback,
) => void;

/** A transform's own `_flush`, as the meter found it. */
export type FlushFunction = (this: unknown, cb: OperationCallback) => void;

/**
 * The operation in flight on the writing side of a stream: a write of `meterWritable` or a chunk of
 * `meterTransform`. One per stream (Node runs one at a time), and one class for both meters, so the call
 * sites stay monomorphic in a pipeline of both; every field starts as a value of its final type, so a
 * timestamp is stored in place rather than boxed anew on every operation.
 */
export class OperationMeter extends TimingSample {
  /** When the operation in flight started (ms, the clock's own origin); after a timed end, that end. */
  start = 0;
  bytes = 0;
  /** An operation is in flight and its callback has not run yet. */
  // Stryker disable next-line BooleanLiteral: begin() sets it before Node can call back
  pending = false;
  /** The operation in flight has not returned from `_write` / `_transform` yet: a callback now is synchronous. */
  // Stryker disable next-line BooleanLiteral: begin() sets it before Node can call back
  sync = false;
  /** `start` was stamped by the previous operation's callback, which is draining the buffer into this one. */
  drained = false;
  /** The operation in flight is timed. */
  // Stryker disable next-line BooleanLiteral: begin() sets it before Node can call back
  timedNow = false;

  /** Node's callback for the operation in flight. */
  callback: OperationCallback = noop;
  /**
   * The callback handed to the stream's own function in place of Node's: made once per stream, not per operation.
   * A Transform's and a Writable's are two function literals, each with its own call of Node's callback: a
   * Transform's callback is a new closure per chunk, which V8 calls inline only from a call site that sees no
   * other kind of callback (a Writable's is a bound function); called from a shared site, each new closure would
   * go through V8's lazy-compile stub and a generic call.
   */
  readonly done: OperationCallback;

  // The transform's flush fields are on this class too, so that both meters keep one shape.
  /** The transform's own `_flush`, which the shared wrapper calls once per stream. */
  flush: FlushFunction = noop;
  /** Where a transform's flush is recorded, or undefined when it is not. */
  flushStats: Stats | undefined = undefined;
  /** The transform's `_flush` is running: the chunks it feeds itself are part of the flush. */
  flushing = false;

  /** `stats` when it is one of the library's own handles, which record an untimed operation in fewer steps. */
  readonly handle: RecordingHandle | undefined;

  constructor(
    readonly stats: Stats,
    readonly state: WritableStateView | undefined,
    every: number,
    kind: 'transform' | 'write',
  ) {
    super(every, performance);
    // Stryker disable next-line ConditionalExpression: without the handle, timedIncrementBytes records the same
    this.handle = stats instanceof RecordingHandle ? stats : undefined;
    // The two bodies are the same. `next` is read before calling back: the callback may start the next operation.
    this.done =
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: the two behave alike
      kind === 'transform'
        ? (error, data) => {
            const next = this.callback;
            if (this.settle(error, data)) {
              this.drained = true;
              next(error, data);
              // Consumed by the operation Node started, or left over if it started none.
              this.drained = false;
            } else next(error, data);
          }
        : (error, data) => {
            const next = this.callback;
            if (this.settle(error, data)) {
              this.drained = true;
              next(error, data);
              this.drained = false;
            } else next(error, data);
          };
  }

  begin(bytes: number, callback: OperationCallback): void {
    this.bytes = bytes;
    // A Writable hands the same callback to every write: skip the store and its write barrier.
    // Stryker disable next-line ConditionalExpression: storing the same function again changes nothing
    if (this.callback !== callback) this.callback = callback;
    this.pending = true;
    // Stryker disable next-line BooleanLiteral: the flag only spares state reads; nothing recorded differs
    this.sync = true;
    if (this.untimed > 0) {
      this.untimed -= 1;
      this.timedNow = false;
      return;
    }
    this.beginTimed();
  }

  // The timed paths are methods of their own, called for one operation in N: V8 inlines a call by how often it
  // runs, so they stay out of the untimed path that Node's stream code inlines, and out of its inlining budget.
  private beginTimed(): void {
    this.timedNow = true;
    if (this.drained) this.drained = false;
    else this.start = this.clock.now();
  }

  /**
   * Records the operation in flight, once and only if it succeeded (a second callback records nothing), and
   * tells whether the next operation may start at this one's end: it is timed, and this callback is not
   * synchronous. A synchronous callback is left out to spare the state reads in synchronous pipelines: Node is
   * then inside `clearBuffer` already, or nothing was buffered when the operation began.
   */
  end(ok: boolean): boolean {
    // In the next two checks `return true` is an equivalent mutant: Node answers a second callback with
    // ERR_MULTIPLE_CALLBACK and starts no write after a failed one. Not disabled, as that would hide `!` too.
    if (!this.pending) return false;
    this.pending = false;
    if (!ok) return false;
    if (this.timedNow) return this.endTimed();
    const handle = this.handle;
    // Stryker disable next-line ConditionalExpression: timedIncrementBytes records the same, in more steps
    if (handle !== undefined) handle.countBytes(this.bytes);
    else this.stats.timedIncrementBytes(this.bytes, 0, 0);
    return false;
  }

  private endTimed(): boolean {
    const now = this.clock.now();
    const duration = now - this.start;
    this.stats.timedIncrementBytes(this.bytes, duration, this.weight);
    // Only read by the next operation when it is started by this callback (`drained`); otherwise it reads its own.
    this.start = now;
    this.timed(duration);
    // Stryker disable next-line ConditionalExpression,LogicalOperator: untimed next operations ignore the drained flag
    return this.untimed === 0 && !this.sync;
  }

  /**
   * Ends the operation in flight, before `done` calls Node's callback for it, and tells whether that callback
   * starts the next buffered operation at once (see `drainsNextWrite`): that operation then starts at this one's
   * end, with no clock read of its own. Node pushes `data` handed to a transform's callback before it takes the
   * next chunk, and that push can run the next stages: only a callback without data lets the next operation
   * start at this one's end.
   */
  settle(error: Error | null | undefined, data: unknown): boolean {
    return (
      this.end(error === undefined || error === null) &&
      (data === undefined || data === null) &&
      drainsNextWrite(this.state)
    );
  }
}
