import type { Attributes, BatchObservableResult, ObservableGauge } from '@opentelemetry/api';
import { RUN_FAILURE_REASONS } from './failure-reasons.js';
import type { GaugeRecorder, RunGauges, RunInstruments } from './run-instruments.js';

/** Index of the success series among a handle's run series; failure reason `i` is at `i + 1`. */
const SUCCESS = 0;

/**
 * The runs of one series handle: the attributes of its run series, computed once; the runs ended and not yet added
 * to the instruments; and the last values its gauges show. Runs are rare (one per backup), so ending one may
 * allocate; what matters is that nothing is lost or counted twice.
 */
export class RunSeries {
  /** The run counter's attributes: success, then one per failure reason in RUN_FAILURE_REASONS order. */
  private readonly runAttributes: readonly Attributes[];
  /** The duration histogram's attributes: success, failure. */
  private readonly durationAttributes: readonly [Attributes, Attributes];
  /** Runs ended and not yet added, indexed like {@link runAttributes}. */
  private readonly pendingRuns: number[];
  /** Durations in seconds not yet recorded: successes, failures. */
  private readonly pendingSeconds: [number[], number[]] = [[], []];
  /** False until the first flush, which adds 0 to every run series so that each exists before its first run. */
  private announced = false;
  /** True while waiting in the flush queue: set by {@link markQueued}, cleared by {@link addTo}. */
  private queued = false;
  lastSuccessTime: number | undefined;
  lastFailureTime: number | undefined;
  lastSuccessBytes: number | undefined;

  constructor(
    /** The handle's own attributes (its labels, or the overflow marker), which the gauges carry. */
    readonly attributes: Attributes,
    reasonKey: string,
  ) {
    const success = Object.freeze({ ...attributes, outcome: 'success' });
    const failure = Object.freeze({ ...attributes, outcome: 'failure' });
    this.runAttributes = [
      success,
      ...RUN_FAILURE_REASONS.map((reason) => Object.freeze({ ...failure, [reasonKey]: reason })),
    ];
    this.durationAttributes = [success, failure];
    this.pendingRuns = this.runAttributes.map(() => 0);
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

  /** Records a successful run that took `seconds` and ended at `endTime` (Unix seconds). */
  succeeded(seconds: number, endTime: number, bytes: number | undefined): void {
    this.pendingRuns[SUCCESS] = (this.pendingRuns[SUCCESS] as number) + 1;
    this.pendingSeconds[0].push(seconds);
    this.lastSuccessTime = endTime;
    this.lastSuccessBytes = bytes;
  }

  /** Records a failed run; `reason` indexes RUN_FAILURE_REASONS. */
  failed(reason: number, seconds: number, endTime: number): void {
    this.pendingRuns[reason + 1] = (this.pendingRuns[reason + 1] as number) + 1;
    this.pendingSeconds[1].push(seconds);
    this.lastFailureTime = endTime;
  }

  /**
   * Adds the pending runs to the instruments and leaves the queue. Each number leaves the pending state as soon as
   * its instrument took it, so that when one throws, the retry adds only what is still pending: never twice.
   */
  addTo(instruments: RunInstruments): void {
    const pending = this.pendingRuns;
    for (let i = 0; i < pending.length; i++) {
      const count = pending[i] as number;
      if (count === 0 && this.announced) continue;
      instruments.runs.add(count, this.runAttributes[i]);
      pending[i] = 0;
    }
    this.announced = true;
    for (let outcome = 0; outcome < 2; outcome++) {
      const seconds = this.pendingSeconds[outcome] as number[];
      while (seconds.length > 0) {
        instruments.duration.record(seconds[0] as number, this.durationAttributes[outcome]);
        seconds.shift();
      }
    }
    if (instruments.gauges.synchronous) this.recordGauges(instruments.gauges);
    this.queued = false;
  }

  /**
   * Sets the synchronous gauges that have a value. A gauge keeps its last value: a success without bytes leaves
   * the bytes of the last success that had some.
   */
  recordGauges(gauges: RunGauges<GaugeRecorder>): void {
    if (this.lastSuccessTime !== undefined) gauges.lastSuccessTime.record(this.lastSuccessTime, this.attributes);
    if (this.lastFailureTime !== undefined) gauges.lastFailureTime.record(this.lastFailureTime, this.attributes);
    if (this.lastSuccessBytes !== undefined) gauges.lastSuccessBytes.record(this.lastSuccessBytes, this.attributes);
  }

  /** Observes the observable gauges that have a value. */
  observe(result: BatchObservableResult, instruments: RunGauges<ObservableGauge>): void {
    if (this.lastSuccessTime !== undefined)
      result.observe(instruments.lastSuccessTime, this.lastSuccessTime, this.attributes);
    if (this.lastFailureTime !== undefined)
      result.observe(instruments.lastFailureTime, this.lastFailureTime, this.attributes);
    if (this.lastSuccessBytes !== undefined)
      result.observe(instruments.lastSuccessBytes, this.lastSuccessBytes, this.attributes);
  }
}
