import type { Attributes, Counter, Meter } from '@opentelemetry/api';
import type { ResolvedLabels } from '../api/labels.js';
import type { Run, RunOptions } from '../api/run.js';
import { isAmount, MAX_PENDING } from '../base/amount.js';
import type { LocalHistogram } from '../histogram/local-histogram.js';
import type { FamilySpec } from '../naming/counter-naming.js';
import { type ExpectedProgress, expectedProgressOf } from '../series/run-options.js';
import { RecordingHandle, type RecordingOwner } from './recording-handle.js';

/** What a series handle asks of the family that owns it. */
export interface SeriesOwner extends RecordingOwner {
  /**
   * Takes a handle that has new pending numbers and is not queued. A buffered family queues it for the next
   * flush; a direct one adds its numbers to the instruments at once and queues it only if they stay pending.
   */
  deliver(handle: SeriesHandle): void;
  /** Starts a run on the run series of this handle's attributes. */
  startRun(attributes: Attributes, expected?: ExpectedProgress): Run;
}

/**
 * The handle of one series: its attributes, computed once, and the numbers recorded on it and not yet added to
 * the instruments. Recording only adds to those numbers and, the first time since they were last added, hands
 * the handle to its family. Every field is set in the constructor so that all series handles share one hidden
 * class, whatever kind of family owns them.
 */
export class SeriesHandle extends RecordingHandle<SeriesOwner> {
  count = 0;
  bytes = 0;
  durationMillis = 0;
  /**
   * True from the record that hands the handle to its family to the flush that adds its numbers ({@link addTo})
   * or to their drop ({@link discard}). The family is notified only while false. Only the handle writes it.
   */
  queued = false;
  /**
   * The number of the collection (FamilyRegistry.collections) during which the numbers last went to the
   * instruments; -1 before the first time. Only the family writes it.
   */
  addedIn = -1;

  constructor(
    owner: SeriesOwner,
    labels: ResolvedLabels,
    readonly attributes: Attributes,
    /**
     * The series' latency histogram, or undefined when the stats keep none. One class whatever it holds (not a
     * "no histogram" object of another class): every record call site and field access stays monomorphic, also
     * in a process holding stats of both kinds.
     */
    readonly histogram: LocalHistogram | undefined,
  ) {
    super(owner, labels);
  }

  /** Adds one record of valid amounts; false when a pending sum would pass {@link MAX_PENDING}. */
  protected add(bytes: number, durationMillis: number, weight: number): boolean {
    const pendingBytes = this.bytes + bytes;
    const pendingMillis = this.durationMillis + durationMillis * weight;
    // Compared with `<=`: a NaN sum (an infinite duration of weight 0, ∞ × 0) fails it, as an infinite one does.
    if ((pendingBytes <= MAX_PENDING && pendingMillis <= MAX_PENDING) === false) return false;
    this.count += 1;
    this.bytes = pendingBytes;
    this.durationMillis = pendingMillis;
    const histogram = this.histogram;
    if (histogram !== undefined && weight > 0) histogram.record(durationMillis, weight);
    // `=== false`, not `!`: a comparison with a constant, where `!` compiles to a generic truthiness test.
    if (this.queued === false) {
      this.queued = true;
      this.owner.deliver(this);
    }
    return true;
  }

  protected addBytes(bytes: number): boolean {
    if (isAmount(bytes) === false) return false;
    const pendingBytes = this.bytes + bytes;
    // Compared with `<=`, as in add: an infinite sum fails it.
    if (pendingBytes <= MAX_PENDING === false) return false;
    this.count += 1;
    this.bytes = pendingBytes;
    if (this.queued === false) {
      this.queued = true;
      this.owner.deliver(this);
    }
    return true;
  }

  /** A pending sum is bounded until the next flush, which only a flush makes room in: refused. */
  protected addPastBound(): boolean {
    return false;
  }

  startRun(options?: RunOptions): Run {
    return this.owner.startRun(this.attributes, expectedProgressOf('startRun', options));
  }

  /** Adds numbers a worker thread recorded for these labels, read at a flush, as if they were recorded here. */
  addPending(count: number, bytes: number, durationMillis: number): void {
    this.count += count;
    this.bytes += bytes;
    this.durationMillis += durationMillis;
    if (this.queued === false) {
      this.queued = true;
      this.owner.deliver(this);
    }
  }

  /**
   * Adds the pending numbers to `instruments` and leaves the queue. Each number is zeroed as soon as its
   * instrument has taken it, so that when an instrument throws, the retry adds only what is still pending:
   * never twice.
   */
  addTo(instruments: Instruments): void {
    const attributes = this.attributes;
    if (this.count > 0) {
      instruments.operations.add(this.count, attributes);
      this.count = 0;
    }
    // The bytes counter is an integer one, which truncates every add: whole bytes go out and the fraction
    // waits for the next flush, so the exported total is the whole part of the sum whatever the timing.
    const wholeBytes = Math.trunc(this.bytes);
    if (wholeBytes > 0) {
      instruments.bytes.add(wholeBytes, attributes);
      this.bytes -= wholeBytes;
    }
    // Added even when zero, so that every series with operations has a time series too.
    instruments.time.add(instruments.fromMillis(this.durationMillis), attributes);
    this.durationMillis = 0;
    this.queued = false;
  }

  /** Drops the pending numbers: recorded after shutdown, they have nowhere to go. */
  discard(): void {
    this.count = 0;
    this.bytes = 0;
    this.durationMillis = 0;
    this.queued = false;
  }
}

/** The three counters of one family, and the conversion from milliseconds to the time counter's unit. */
export interface Instruments {
  readonly operations: Counter;
  readonly bytes: Counter;
  readonly time: Counter;
  readonly fromMillis: (durationMillis: number) => number;
}

/** Creates the counters of `spec` on `meter`. */
export function createInstruments(meter: Meter, spec: FamilySpec): Instruments {
  const { operations, bytes, time, fromMillis } = spec;
  return {
    operations: meter.createCounter(operations.name, operations),
    bytes: meter.createCounter(bytes.name, bytes),
    time: meter.createCounter(time.name, time),
    fromMillis,
  };
}
