import type { Stats } from '../stats.js';
import { nextSpan } from './timing-sample.js';
import type { WritableStateView } from './writable-drain.js';

/**
 * The operation in flight on the writing side of a stream: a write of `meterWritable` or a chunk of
 * `meterTransform`. One per stream (Node runs one at a time), and one class for both meters, so the call
 * sites stay monomorphic in a pipeline of both; every field starts as a value of its final type, so a
 * timestamp is stored in place rather than boxed anew on every operation.
 */
export class OperationMeter<Callback> {
  /** When the operation in flight started (ms, the clock's own origin); after a timed end, that end. */
  start = 0;
  bytes = 0;
  /** An operation is in flight and its callback has not run yet. */
  pending = false;
  /** The operation in flight has not returned from `_write` / `_transform` yet: a callback now is synchronous. */
  sync = false;
  /** `start` was stamped by the previous operation's callback, which is draining the buffer into this one. */
  drained = false;
  /** The operation in flight is timed (always, without sampling). */
  timed = false;
  /** Operations to leave untimed before the next timed one (always 0 without sampling). */
  untimed = 0;
  /** How many operations the next timed one stands for (always 1 without sampling). */
  span = 1;
  readonly clock: typeof performance = performance;

  constructor(
    readonly stats: Stats,
    readonly state: WritableStateView | undefined,
    readonly every: number,
    /** Node's callback for the operation in flight. */
    public callback: Callback,
  ) {
    this.span = nextSpan(every);
    this.untimed = this.span - 1;
  }

  begin(bytes: number, callback: Callback): void {
    this.bytes = bytes;
    // A Writable hands the same callback to every write: skip the store and its write barrier.
    if (this.callback !== callback) this.callback = callback;
    this.pending = true;
    this.sync = true;
    if (this.untimed > 0) {
      this.untimed -= 1;
      this.timed = false;
      return;
    }
    this.timed = true;
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
    if (!this.pending) return false;
    this.pending = false;
    if (!ok) return false;
    if (!this.timed) {
      this.stats.timedIncrementBytes(this.bytes, 0);
      return false;
    }
    const now = this.clock.now();
    this.stats.timedIncrementBytes(this.bytes, (now - this.start) * this.span);
    // Only read by the next operation when it is started by this callback (`drained`); otherwise it reads its own.
    this.start = now;
    this.span = nextSpan(this.every);
    this.untimed = this.span - 1;
    return this.untimed === 0 && !this.sync;
  }
}
