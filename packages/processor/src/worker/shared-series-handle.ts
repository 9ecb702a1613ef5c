import type { ResolvedLabels } from '../api/labels.js';
import type { Run, RunOptions } from '../api/run.js';
import { isAmount, MAX_PENDING } from '../base/amount.js';
import { BucketIndex } from '../histogram/bucket-layout.js';
import type { ExplicitBuckets } from '../histogram/explicit-buckets.js';
import {
  BYTES,
  COUNT,
  H_COUNT,
  H_EXPONENTIAL,
  H_MAX,
  H_MIN,
  H_SUM,
  H_ZERO,
  MILLIS,
  REBASE_TAKEN_UP,
  REBASED_BYTES,
  REBASED_MILLIS,
  TAKEN_BYTES,
  TAKEN_MILLIS,
} from '../link/region-layout.js';
import { RecordingHandle, type RecordingOwner } from '../series/recording-handle.js';
import { expectedProgressOf } from '../series/run-options.js';

/** What a worker's series handle asks of the family that owns it. */
export interface SharedOwner extends RecordingOwner {
  startRun(): Run;
}

/**
 * The handle of one series in a worker thread: its numbers are cells of the place's shared memory, which only this
 * thread writes and which only grow (the main thread reads them at its flushes and keeps what it already took).
 * Recording adds to them in place: no allocation, no Map lookup, no clock read, no message.
 *
 * Two rules make a record safe against the main thread's reads and against `terminate()`:
 *
 * - The record's stores come after everything that calls a function or loops (the checks, the bucket indexes),
 *   and between its first store and its last there are only plain stores to typed arrays: no call, no loop, not
 *   even an Atomics call. V8 stops a terminated thread only at an interrupt check, and those sit at calls and loop
 *   back edges (an Atomics call is one: a worker terminated around Atomics.store was seen to stop there), so a
 *   record is written whole or not at all.
 * - The histogram cells are written inside a sequence lock: the slot's sequence number is made odd, the cells are
 *   added to, and it is made even. The main thread keeps a histogram read only when it saw the same even number
 *   before and after it, so the count, sum and buckets it folds are those of the same records, and a Float64 torn
 *   by a store in progress is never kept. The counters need no lock: each is folded on its own, so a record whose
 *   count is read at one flush and its bytes at the next still counts once in each.
 *
 * The sequence number's stores are plain (an Atomics.store would be an interrupt check, and costs 8 ns on x64).
 * ECMAScript's memory model gives plain stores no order as seen from another thread; V8 emits them in program
 * order, and x64 makes stores visible in that order, so on x64 the lock is exact. Where stores may become visible
 * out of order (arm64), a read may take part of the record in progress: every cell is cumulative and each read
 * folds only what it gained, so the rest comes with the next read and each record still counts exactly once; only
 * that one collection may show a count one record away from its buckets.
 *
 * The bytes and milliseconds are bounded as the main thread bounds its pending sums: what the main thread has not
 * yet read stays within MAX_PENDING, however much the slot held over its life. A cumulative cell stays exact only up
 * to MAX_PENDING, so a record that would carry one past it first rebases the slot ({@link rebase}).
 */
export class SharedSeriesHandle extends RecordingHandle<SharedOwner> {
  constructor(
    owner: SharedOwner,
    labels: ResolvedLabels,
    /** The place's numbers; after `close()`, a private copy that no one reads. */
    public numbers: Float64Array,
    /** The series' first cell in `numbers`. */
    readonly at: number,
    /** The place's Int32 words, where the series' sequence number is; private after `close()` too. */
    public seqs: Int32Array,
    readonly seqAt: number,
    /** The explicit buckets of the stats' histograms, or none when they keep no histogram. */
    readonly buckets: ExplicitBuckets | undefined,
    /** The first explicit bucket's cell, from `at`. */
    readonly explicitAt: number,
    /** The series' rebase words in `seqs` and rebase cells in `numbers` (link/region-layout.ts). */
    readonly rebaseAt: number,
    readonly rebaseCellsAt: number,
  ) {
    super(owner, labels);
  }

  /** Finds the exponential bucket (its tables read through this object's own fields, as LocalHistogram does). */
  private readonly bucketIndex = new BucketIndex();

  startRun(options?: RunOptions): Run {
    // Checked as on the main thread, so that a wrong option fails the same way wherever the code runs.
    expectedProgressOf('startRun', options);
    return this.owner.startRun();
  }

  protected addBytes(bytes: number): boolean {
    return isAmount(bytes) && this.add(bytes, 0, 0);
  }

  /** Adds one record of valid amounts; false when a cumulative sum would pass {@link MAX_PENDING} ({@link addPastBound}). */
  protected add(bytes: number, durationMillis: number, weight: number): boolean {
    const numbers = this.numbers;
    const at = this.at;
    const totalBytes = (numbers[at + BYTES] as number) + bytes;
    const totalMillis = (numbers[at + MILLIS] as number) + durationMillis * weight;
    // Compared with `<=`: a NaN sum (an infinite duration of weight 0, ∞ × 0) fails it, as an infinite one does.
    if ((totalBytes <= MAX_PENDING && totalMillis <= MAX_PENDING) === false) return false;
    // The histogram's cells, found before the first store: offsetOf and indexOf are calls, indexOf loops. As in
    // LocalHistogram, a duration has an explicit cell only in an exponential bucket that holds a boundary; the main
    // thread sums the others' explicit counts from the exponential cells at collection.
    let bucketCell = -1;
    let explicitCell = -1;
    const buckets = this.buckets;
    if (weight > 0 && buckets !== undefined) {
      if (durationMillis === 0) {
        bucketCell = at + H_ZERO;
      } else {
        const offset = this.bucketIndex.offsetOf(durationMillis);
        bucketCell = at + H_EXPONENTIAL + offset;
        if (buckets.split[offset] !== 0) explicitCell = at + this.explicitAt + buckets.indexOf(durationMillis, offset);
      }
    }
    // Plain stores only from here: no call and no loop.
    // `at - COUNT` survives mutation testing (COUNT is 0); it is not disabled, as that would hide `+ 1` too.
    numbers[at + COUNT] = (numbers[at + COUNT] as number) + 1;
    numbers[at + BYTES] = totalBytes;
    numbers[at + MILLIS] = totalMillis;
    // Stryker disable next-line EqualityOperator: a cell's index is at least the slots' start, above 0
    if (bucketCell >= 0) {
      const seqs = this.seqs;
      const seqAt = this.seqAt;
      const seq = seqs[seqAt] as number;
      // Stryker disable next-line ArithmeticOperator: still odd during the write; the reader compares for equality
      seqs[seqAt] = (seq + 1) | 0;
      numbers[at + H_COUNT] = (numbers[at + H_COUNT] as number) + weight;
      numbers[at + H_SUM] = (numbers[at + H_SUM] as number) + durationMillis * weight;
      if (durationMillis < (numbers[at + H_MIN] as number)) numbers[at + H_MIN] = durationMillis;
      if (durationMillis > (numbers[at + H_MAX] as number)) numbers[at + H_MAX] = durationMillis;
      numbers[bucketCell] = (numbers[bucketCell] as number) + weight;
      // Stryker disable next-line EqualityOperator,ConditionalExpression: -1 or above 0; a typed array ignores index -1
      if (explicitCell >= 0) numbers[explicitCell] = (numbers[explicitCell] as number) + weight;
      seqs[seqAt] = (seq + 2) | 0;
    }
    return true;
  }

  /**
   * A record {@link add} refused for the bound: added after a {@link rebase}, which leaves room for it when what the
   * main thread has not read leaves room, or refused. Apart from `add`, so that `add` stays small enough for V8 to
   * inline into the record call (with the rebase in it, a worker's record took twice as long).
   */
  protected addPastBound(bytes: number, durationMillis: number, weight: number): boolean {
    return this.rebase(bytes, durationMillis * weight) && this.add(bytes, durationMillis, weight);
  }

  /**
   * Takes off the slot's bytes and milliseconds what the main thread has already taken of them (it publishes that in
   * the rebase cells after each read), so that they hold only what it has not read, and says so in the rebase cells
   * and words for the main thread to take the same amounts off what it keeps (reader/place-reader.ts). False,
   * changing nothing, when a record of `bytes` and `millis` would not fit even then (its sums since the main
   * thread's last read would pass MAX_PENDING: refused, as on the main thread past it since the last flush), or when
   * the main thread has not yet taken up the previous rebase. Rare: a slot rebases once its cumulative bytes or
   * milliseconds near 2^53 (8 PiB, or 285,000 years).
   *
   * Written as a record is: everything that calls first, then plain stores only, so a terminated thread writes it
   * whole or not at all. The rebase number is odd while the cells change, and the main thread leaves the counters
   * of a read that saw it change to its next read. As with the histograms' sequence number, that is exact where
   * stores become visible in program order (x64); elsewhere (arm64) a read that meets a rebase in progress may fold
   * that slot's bytes or milliseconds wrong once, about once per 8 PiB or 285,000 years a slot holds.
   */
  private rebase(bytes: number, millis: number): boolean {
    const { numbers, seqs, at, rebaseAt, rebaseCellsAt: cells } = this;
    const round = seqs[rebaseAt] as number;
    if (Atomics.load(seqs, rebaseAt + REBASE_TAKEN_UP) !== round) return false;
    const takenBytes = numbers[cells + TAKEN_BYTES] as number;
    const takenMillis = numbers[cells + TAKEN_MILLIS] as number;
    const restBytes = (numbers[at + BYTES] as number) - takenBytes;
    const restMillis = (numbers[at + MILLIS] as number) - takenMillis;
    // Compared so that NaN fails: what the main thread published lies within what the slot holds.
    if (!(takenBytes >= 0 && takenMillis >= 0 && restBytes >= 0 && restMillis >= 0)) return false;
    if ((restBytes + bytes <= MAX_PENDING && restMillis + millis <= MAX_PENDING) === false) return false;
    // Plain stores only from here: no call and no loop.
    seqs[rebaseAt] = (round + 1) | 0;
    numbers[cells + REBASED_BYTES] = takenBytes;
    numbers[cells + REBASED_MILLIS] = takenMillis;
    numbers[at + BYTES] = restBytes;
    numbers[at + MILLIS] = restMillis;
    seqs[rebaseAt] = (round + 2) | 0;
    return true;
  }
}
