import type { Attributes, BatchObservableResult, ObservableGauge } from '@opentelemetry/api';
import { RUN_FAILURE_REASONS } from './failure-reasons.js';
import { type GaugeRecorder, RUN_GAUGE_KEYS, type RunGauges, type RunInstruments } from './run-instruments.js';

/** Index of the success series among a handle's run series; failure reason `i` is at `1 + i`, partial at `PARTIAL + i`. */
const SUCCESS = 0;
const FAILURE = 1;
const PARTIAL = 1 + RUN_FAILURE_REASONS.length;
/** The outcomes' indexes among the duration histogram's attributes. */
const SUCCESS_OUTCOME = 0;
const FAILURE_OUTCOME = 1;
const PARTIAL_OUTCOME = 2;

/** The collections of the provider so far, as the run book counts them (the collection hook's drains). */
export interface CollectionCount {
  readonly collections: number;
}

/**
 * The runs of one series handle: the attributes of its run series, computed once; the runs ended and warnings given
 * not yet added to the instruments; and the last values its gauges show. Runs are rare (one per backup), so ending
 * one may allocate; what matters is that nothing is lost or counted twice.
 */
export class RunSeries {
  /** The run counter's attributes: success, one per failure reason, one per partial reason (RUN_FAILURE_REASONS order). */
  private readonly runAttributes: readonly Attributes[];
  /** The warning counter's attributes, one per reason in RUN_FAILURE_REASONS order. */
  private readonly warningAttributes: readonly Attributes[];
  /** The duration histogram's attributes: success, failure, partial. */
  private readonly durationAttributes: readonly Attributes[];
  /** Runs ended and not yet added, indexed like {@link runAttributes}. */
  private readonly pendingRuns: number[];
  /** Warnings given and not yet added, indexed like {@link warningAttributes}. */
  private readonly pendingWarnings: number[];
  /** Durations in seconds not yet recorded: successes, failures, partial ends. */
  private readonly pendingSeconds: [number[], number[], number[]] = [[], [], []];
  /** False until the first flush, which adds 0 to every run series so that each exists before its first run. */
  private announced = false;
  /**
   * The collection count at each counter series' and duration series' latest add (-1 before the first), indexed as
   * {@link runAttributes}, then {@link warningAttributes}, then {@link durationAttributes}: to tell an add that
   * starts a series' point, see {@link startsPoint}.
   */
  private readonly addedIn: number[];
  /** The gauges set so far, one bit per key in RUN_GAUGE_KEYS order. */
  private gaugesSet = 0;
  /** True while waiting in the flush queue: set by {@link markQueued}, cleared by {@link addTo}. */
  private queued = false;
  lastSuccessTime: number | undefined;
  lastFailureTime: number | undefined;
  lastPartialTime: number | undefined;
  lastSuccessBytes: number | undefined;
  lastSuccessStoredBytes: number | undefined;

  constructor(
    /** The handle's own attributes (its labels, or the overflow marker), which the gauges carry. */
    readonly attributes: Attributes,
    reasonKey: string,
    private readonly count: CollectionCount,
  ) {
    const success = Object.freeze({ ...attributes, outcome: 'success' });
    const failure = Object.freeze({ ...attributes, outcome: 'failure' });
    const partial = Object.freeze({ ...attributes, outcome: 'partial' });
    const byReason = (base: Attributes) =>
      RUN_FAILURE_REASONS.map((reason) => Object.freeze({ ...base, [reasonKey]: reason }));
    this.runAttributes = [success, ...byReason(failure), ...byReason(partial)];
    this.warningAttributes = byReason(attributes);
    this.durationAttributes = [success, failure, partial];
    this.pendingRuns = this.runAttributes.map(() => 0);
    this.pendingWarnings = this.warningAttributes.map(() => 0);
    this.addedIn = [...this.runAttributes, ...this.warningAttributes, ...this.durationAttributes].map(() => -1);
  }

  /** Marks the series queued; false when it already was, so that it waits in the queue once. */
  markQueued(): boolean {
    if (this.queued) return false;
    this.queued = true;
    return true;
  }

  /** Runs ended and not yet added to the instruments. */
  get pendingCount(): number {
    return this.pendingRuns.reduce((sum, count) => sum + count, 0);
  }

  /**
   * Records a successful run that took `seconds` and ended at `endTime` (Unix seconds), with the bytes it read and
   * stored when known (a synchronous gauge keeps the last value it was given; an observable one shows nothing).
   */
  succeeded(seconds: number, endTime: number, bytes: number | undefined, storedBytes: number | undefined): void {
    this.pendingRuns[SUCCESS] = (this.pendingRuns[SUCCESS] as number) + 1;
    this.pendingSeconds[SUCCESS_OUTCOME].push(seconds);
    this.lastSuccessTime = endTime;
    this.lastSuccessBytes = bytes;
    this.lastSuccessStoredBytes = storedBytes;
  }

  /** Records a failed run; `reason` indexes RUN_FAILURE_REASONS. */
  failed(reason: number, seconds: number, endTime: number): void {
    this.pendingRuns[FAILURE + reason] = (this.pendingRuns[FAILURE + reason] as number) + 1;
    this.pendingSeconds[FAILURE_OUTCOME].push(seconds);
    this.lastFailureTime = endTime;
  }

  /** Records a run that ended partial: done, with parts left out or failed; `reason` indexes RUN_FAILURE_REASONS. */
  endedPartial(reason: number, seconds: number, endTime: number): void {
    this.pendingRuns[PARTIAL + reason] = (this.pendingRuns[PARTIAL + reason] as number) + 1;
    this.pendingSeconds[PARTIAL_OUTCOME].push(seconds);
    this.lastPartialTime = endTime;
  }

  /** Counts a warning of a run in progress; `reason` indexes RUN_FAILURE_REASONS. */
  warned(reason: number): void {
    this.pendingWarnings[reason] = (this.pendingWarnings[reason] as number) + 1;
  }

  /**
   * Adds the pending runs and warnings to the instruments and leaves the queue. Each number leaves the pending state
   * as soon as its instrument took it, so that when one throws, the retry adds only what is still pending: never
   * twice. Returns true when an add started a series' point (see {@link startsPoint}).
   */
  addTo(instruments: RunInstruments): boolean {
    const warningsAt = this.runAttributes.length;
    const durationsAt = warningsAt + this.warningAttributes.length;
    let started = this.addPending(this.pendingRuns, this.runAttributes, 0, (value, attributes) =>
      instruments.runs.add(value, attributes),
    );
    if (
      this.addPending(this.pendingWarnings, this.warningAttributes, warningsAt, (value, attributes) =>
        instruments.warnings.add(value, attributes),
      )
    )
      started = true;
    this.announced = true;
    for (let outcome = 0; outcome < this.pendingSeconds.length; outcome++) {
      const seconds = this.pendingSeconds[outcome] as number[];
      while (seconds.length > 0) {
        instruments.duration.record(seconds[0] as number, this.durationAttributes[outcome]);
        seconds.shift();
        if (this.added(durationsAt + outcome)) started = true;
      }
    }
    if (instruments.gauges.synchronous && this.recordGauges(instruments.gauges)) started = true;
    this.queued = false;
    return started;
  }

  /**
   * Sets the synchronous gauges that have a value. A gauge keeps its last value: a success without bytes leaves
   * the bytes of the last success that had some. Returns true when one was set for the first time: its series
   * starts then. (Every collection sets them all again, so a gauge's series is never idle through a collection.)
   */
  recordGauges(gauges: RunGauges<GaugeRecorder>): boolean {
    const before = this.gaugesSet;
    for (let i = 0; i < RUN_GAUGE_KEYS.length; i++) {
      const key = RUN_GAUGE_KEYS[i] as (typeof RUN_GAUGE_KEYS)[number];
      const value = this[key];
      if (value === undefined) continue;
      gauges[key].record(value, this.attributes);
      this.gaugesSet |= 1 << i;
    }
    return this.gaugesSet !== before;
  }

  /**
   * Adds each pending count to its series (every series once before the first flush, so that it exists at 0) and
   * zeroes it as soon as the counter took it. Returns true when an add started a series' point.
   */
  private addPending(
    pending: number[],
    attributes: readonly Attributes[],
    first: number,
    add: (value: number, attributes: Attributes | undefined) => void,
  ): boolean {
    let started = false;
    for (let i = 0; i < pending.length; i++) {
      const count = pending[i] as number;
      if (count === 0 && this.announced) continue;
      add(count, attributes[i]);
      pending[i] = 0;
      if (this.added(first + i)) started = true;
    }
    return started;
  }

  /**
   * Notes an add to the series at `index` of {@link addedIn}; true when it starts a point ({@link startsPoint}).
   */
  private added(index: number): boolean {
    const collections = this.count.collections;
    const started = startsPoint(this.addedIn[index] as number, collections);
    this.addedIn[index] = collections;
    return started;
  }

  /** Observes the observable gauges that have a value. */
  observe(result: BatchObservableResult, instruments: RunGauges<ObservableGauge>): void {
    for (const key of RUN_GAUGE_KEYS) {
      const value = this[key];
      if (value !== undefined) result.observe(instruments[key], value, this.attributes);
    }
  }
}

/**
 * True when an add made now, after `collections` collections, starts a point of its series in some reader: the SDK
 * starts a cumulative series at its first add, and a delta one at its first add in an interval whose previous
 * collection did not have it; `addedIn` is the collection count at the series' latest add (-1 before the first).
 */
function startsPoint(addedIn: number, collections: number): boolean {
  return addedIn === -1 || addedIn < collections - 1;
}
