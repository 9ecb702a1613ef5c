import type { Attributes, BatchObservableResult, Meter } from '@opentelemetry/api';
import type { Run, RunOutcome } from '../api/run.js';
import { RunFailure, type RunFailureReason } from '../api/run-failure.js';
import { isAmount, MAX_PENDING } from '../base/amount.js';
import type { FirstError } from '../base/first-error.js';
import { drainQueue } from '../base/flush-queue.js';
import { noopRun } from '../base/noop.js';
import { waitPastMillisecond } from '../base/wall-clock.js';
import type { Diagnostics } from '../diagnostics/diagnostics.js';
import type { Family } from '../naming/naming-types.js';
import type { RunSpec } from '../naming/run-naming.js';
import { expectedProgressOf } from '../series/run-options.js';
import type { ExpectedProgress, RunObserver } from '../timeline/run-profile.js';
import { RUN_FAILURE_REASONS, recordedReasonIndex } from './failure-reasons.js';
import { OpenRun, type RunEnd } from './open-run.js';
import { createProgressInstruments, type ProgressInstruments } from './progress-instruments.js';
import { MAX_PHASE_LENGTH, MAX_PHASES, ProgressSeries } from './progress-series.js';
import { createRunInstruments, type GaugeRecorder, RUN_GAUGE_KEYS, type RunInstruments } from './run-instruments.js';
import { type CollectionCount, RunSeries } from './run-series.js';

/**
 * The runs of one family: the run series of every handle a run was started from, the runs in progress, and the
 * series whose ended runs wait for the next flush. Ending a run only adds to numbers its series owns; flushes add
 * them to the instruments, as for the other measurements. At shutdown, the runs still in progress end as
 * {@link RunFailure.Interrupted} failures before the last flush, so the final export carries them.
 *
 * A call that starts a point of an instrument's series (a handle's first run, an outcome's first end, a gauge's
 * first value, an add after its series sat out a whole collection) returns only once the wall clock's millisecond
 * has passed: the SDK reads that clock in whole milliseconds, and a collection in the millisecond of the add would
 * export a point that starts where it ends. At most a millisecond per series started, never on the recording path.
 */
export class RunBook implements RunEnd, CollectionCount {
  /** Keyed by the handle's attributes object, which is unique per handle (and shared by every overflow handle). */
  private readonly series = new Map<Attributes, RunSeries>();
  private readonly open = new Set<OpenRun>();
  private readonly queue: RunSeries[] = [];
  /** The gauges of runs in progress, by handle as {@link series}: for handles that had a run with a size or a phase. */
  private readonly progress = new Map<Attributes, ProgressSeries>();
  private instruments: RunInstruments | undefined;
  private progressGauges: ProgressInstruments | undefined;
  private closed = false;
  /** Collections of the provider so far (the collection hook's drains): see {@link RunSeries.addTo}. */
  collections = 0;
  /** True once the current call started a point of a series: it then returns after its millisecond. */
  private started = false;
  /** Hears of every run's start and end: the family's timeline, for the report. */
  observer: RunObserver | undefined;

  constructor(
    private readonly family: Family,
    private readonly spec: RunSpec,
    /** Counts an invalid measurement; said through diag as one unless `say` is false (the caller says it). */
    private readonly countInvalid: (say?: boolean) => void,
    private readonly diagnostics: Diagnostics,
  ) {}

  /** Starts a run on the series of the handle with these attributes; `expected` makes it follow its progress. */
  start(attributes: Attributes, expected?: ExpectedProgress): Run {
    if (this.closed) {
      this.diagnostics.recordedAfterShutdown(this.family);
      return noopRun;
    }
    let series = this.series.get(attributes);
    if (series === undefined) {
      series = new RunSeries(attributes, this.spec.reasonKey, this);
      this.series.set(attributes, series);
      // Its series exist at 0 from now on (from the next flush without instruments yet), before any run ends.
      this.deliver(series);
    }
    const progress = expected === undefined ? undefined : this.progressOf(attributes);
    progress?.started();
    const run = new OpenRun(this, series, progress, expected);
    if (this.open.size > 0) {
      run.overlapped = true;
      for (const other of this.open) other.overlapped = true;
    }
    this.open.add(run);
    // Stryker disable next-line OptionalChaining: each run book gets its observer before any call reaches it
    this.observer?.started(run, attributes, expected);
    if (progress !== undefined) this.setProgress(run, progress);
    this.passStartMillisecond();
    return run;
  }

  succeed(run: OpenRun, bytes: unknown, details: unknown): void {
    if (!this.open.delete(run)) return;
    const seconds = (performance.now() - run.startedAt) / 1000;
    const kept = this.keptBytes(bytes);
    const given = this.givenStoredBytes(details);
    // One wall-clock read: the gauge's end time and the report's.
    const endedAt = Date.now();
    this.endProgress(run);
    const stored = this.observe(run, 'success', seconds, endedAt, kept, given, undefined);
    run.series.succeeded(seconds, endedAt / 1000, kept, stored);
    this.deliver(run.series);
    this.passStartMillisecond();
  }

  fail(run: OpenRun, reason: RunFailureReason | undefined): void {
    if (!this.open.delete(run)) return;
    const seconds = (performance.now() - run.startedAt) / 1000;
    const index = recordedReasonIndex(reason, (unknown) => this.diagnostics.unknownRunFailure(unknown));
    const endedAt = Date.now();
    this.endProgress(run);
    this.observe(run, 'failure', seconds, endedAt, undefined, undefined, RUN_FAILURE_REASONS[index]);
    run.series.failed(index, seconds, endedAt / 1000);
    this.deliver(run.series);
    this.passStartMillisecond();
  }

  partial(run: OpenRun, reason: unknown, bytes: unknown, details: unknown): void {
    if (!this.open.delete(run)) return;
    const seconds = (performance.now() - run.startedAt) / 1000;
    const index = recordedReasonIndex(reason, (unknown) => this.diagnostics.unknownRunFailure(unknown));
    const kept = this.keptBytes(bytes);
    const given = this.givenStoredBytes(details);
    const endedAt = Date.now();
    this.endProgress(run);
    this.observe(run, 'partial', seconds, endedAt, kept, given, RUN_FAILURE_REASONS[index]);
    run.series.endedPartial(index, seconds, endedAt / 1000);
    this.deliver(run.series);
    this.passStartMillisecond();
  }

  /** Counts a warning of a run in progress, by reason. */
  warn(run: OpenRun, reason: unknown): void {
    if (!this.open.has(run)) return;
    run.series.warned(recordedReasonIndex(reason, (unknown) => this.diagnostics.unknownRunFailure(unknown)));
    this.deliver(run.series);
    this.passStartMillisecond();
  }

  /** Bytes given to a run's end, whole; undefined when left out, or when invalid (counted). */
  private keptBytes(bytes: unknown): number | undefined {
    if (bytes === undefined) return undefined;
    if (isAmount(bytes) && bytes <= MAX_PENDING) return Math.trunc(bytes);
    this.countInvalid();
    return undefined;
  }

  /** The `storedBytes` of a run end's details; undefined when left out, or when invalid (counted). */
  private givenStoredBytes(details: unknown): number | undefined {
    if (details === undefined) return undefined;
    if (typeof details !== 'object' || details === null) {
      this.countInvalid();
      return undefined;
    }
    return this.keptBytes((details as { storedBytes?: unknown }).storedBytes);
  }

  /** Tells the timeline of a run's end; returns the bytes it stored, as given or measured there. */
  private observe(
    run: OpenRun,
    outcome: RunOutcome,
    seconds: number,
    endedAt: number,
    bytes: number | undefined,
    storedBytes: number | undefined,
    reason: string | undefined,
  ): number | undefined {
    const ending = { outcome, seconds, endedAt, bytes, storedBytes, overlapped: run.overlapped, reason };
    // Stryker disable next-line ConditionalExpression: each run book gets its observer before any call reaches it
    return this.observer === undefined ? storedBytes : this.observer.ended(run, ending);
  }

  /** Names the current phase of a run in progress; a name that is not a short string is dropped and counted. */
  phase(run: OpenRun, name: unknown): void {
    if (!this.open.has(run)) return;
    if (typeof name !== 'string' || name.length === 0 || name.length > MAX_PHASE_LENGTH) {
      this.dropPhase(name);
      return;
    }
    run.progress ??= this.progressOf(run.series.attributes);
    if (!run.progress.enter(name)) this.dropPhase(name);
    else this.setProgress(run, run.progress);
    this.passStartMillisecond();
  }

  /** Counts a dropped phase name, said with what is wrong with it rather than as a bad byte count or duration. */
  private dropPhase(name: unknown): void {
    this.countInvalid(false);
    this.diagnostics.invalidPhase(this.family, name, MAX_PHASE_LENGTH, MAX_PHASES);
  }

  /** Gives a run in progress without a size its size; a size or operation that startRun refuses is counted. */
  expectBytes(run: OpenRun, bytes: unknown, operation: unknown): void {
    if (!this.open.has(run) || run.expected !== undefined) return;
    let expected: ExpectedProgress | undefined;
    try {
      // Stryker disable next-line StringLiteral: the name only starts the message of an error caught and dropped below
      expected = expectedProgressOf('expectBytes', {
        expectedBytes: bytes as number,
        progressOperation: operation as string | undefined,
      });
    } catch /* Stryker disable next-line BlockStatement: expected stays undefined, as the call threw */ {
      expected = undefined;
    }
    if (expected === undefined) {
      this.countInvalid();
      return;
    }
    run.expected = expected;
    run.progress ??= this.progressOf(run.series.attributes);
    run.progress.started();
    // Stryker disable next-line OptionalChaining: each run book gets its observer before any call reaches it
    this.observer?.expecting(run, expected);
    this.setProgress(run, run.progress);
    this.passStartMillisecond();
  }

  /** Runs ended and not yet added to the instruments. */
  get pendingRuns(): number {
    let count = 0;
    for (const series of this.queue) count += series.pendingCount;
    return count;
  }

  /**
   * Creates the instruments on `meter`. Observable gauges' callback stays registered after shutdown: the final
   * export, which the provider makes after the stats are shut down, must still carry the last success.
   */
  bind(meter: Meter): void {
    const instruments = createRunInstruments(meter, this.spec);
    this.instruments = instruments;
    const gauges = instruments.gauges;
    if (!gauges.synchronous)
      meter.addBatchObservableCallback(
        (result: BatchObservableResult) => {
          for (const series of this.series.values()) series.observe(result, gauges);
        },
        RUN_GAUGE_KEYS.map((key) => gauges[key]),
      );
    // Progress is read at each collection: the flushes' samples and what the series hold since. Synchronous
    // gauges are set then by refreshGauges, and now for the runs that started before the provider was there.
    const progress = createProgressInstruments(meter, this.spec.progress);
    this.progressGauges = progress;
    if (progress.synchronous) {
      this.refreshProgress(progress);
      return;
    }
    meter.addBatchObservableCallback(
      (result: BatchObservableResult) => {
        this.readProgress();
        for (const series of this.progress.values())
          series.each(progress, (gauge, value, attributes) => result.observe(gauge, value, attributes));
      },
      [progress.active, progress.progress, progress.remainingTime, progress.lastProgressTime, progress.phase],
    );
  }

  /**
   * Sets the synchronous gauges (last runs, progress) again, in every collection's drain and at shutdown, the
   * progress ones read afresh for the runs in progress: a delta reader's gauge series then has a point in every
   * interval, as an observable one had, starting at the previous collection, and the final export carries the last
   * values.
   */
  refreshGauges(): void {
    const gauges = this.instruments?.gauges;
    if (gauges?.synchronous)
      try {
        for (const series of this.series.values()) series.recordGauges(gauges);
      } catch (error) {
        this.diagnostics.flushFailed(error);
      }
    const progress = this.progressGauges;
    if (progress?.synchronous) this.refreshProgress(progress);
  }

  /**
   * Adds every ended run to the instruments. A series whose instrument throws keeps what is left for the next
   * flush, its error kept in `errors`; the others are flushed all the same.
   */
  flush(errors: FirstError): void {
    const instruments = this.instruments;
    // Stryker disable next-line ConditionalExpression: FamilyRegistry.flush returns first without instruments
    if (instruments === undefined) return;
    drainQueue(this.queue, instruments, errors);
  }

  /** Marks the end of a collection's drain, and sets the synchronous gauges again (see {@link refreshGauges}). */
  collected(): void {
    this.collections += 1;
    this.refreshGauges();
  }

  /**
   * Ends every run in progress as interrupted; runs started or ended from now on are ignored. Closed first, so that
   * ending them does not wait for each one's millisecond: the shutdown waits once, after its last flush.
   */
  close(): void {
    this.closed = true;
    for (const run of [...this.open]) this.fail(run, RunFailure.Interrupted);
    this.refreshGauges();
  }

  /** Reads where every run in progress given an expected size stands, for its handle's gauges. */
  private readProgress(): void {
    for (const run of this.open) {
      // Stryker disable next-line ConditionalExpression,OptionalChaining: no expected, no reading; observer always set
      const reading = run.expected === undefined ? undefined : this.observer?.progress(run);
      // Stryker disable next-line OptionalChaining: a run with a reading has an expected size, and so its progress
      if (reading !== undefined) run.progress?.show(reading, false);
    }
  }

  /** Sets every synchronous progress gauge to where its handle's runs stand now. */
  private refreshProgress(gauges: ProgressInstruments & { readonly synchronous: true }): void {
    try {
      this.readProgress();
      for (const series of this.progress.values()) series.each(gauges, recordGauge);
    } catch (error) {
      this.diagnostics.flushFailed(error);
    }
  }

  /**
   * Sets the synchronous progress gauges of a run's handle when the run starts following its progress, enters a
   * phase or ends (no hot path: once each per run or phase), so that their series start then, before the next
   * collection, rather than at it: a series started in a collection's callbacks has its first point start at its
   * end. Observable gauges wait for the collection's callback.
   */
  private setProgress(run: OpenRun, progress: ProgressSeries): void {
    const gauges = this.progressGauges;
    if (gauges === undefined || !gauges.synchronous) return;
    try {
      // `run.expected !== undefined` → `true` is an equivalent mutant: the timeline reads undefined for a run
      // without an expected size. Not disabled, so that the mutants of `this.open.has(run)` stay tested.
      // Stryker disable next-line OptionalChaining: each run book gets its observer before any call reaches it
      const reading = run.expected !== undefined && this.open.has(run) ? this.observer?.progress(run) : undefined;
      if (reading !== undefined) progress.show(reading, false);
      if (progress.each(gauges, recordGauge)) this.started = true;
    } catch (error) {
      this.diagnostics.flushFailed(error);
    }
  }

  /** The progress gauges of the handle with these attributes, created on first use. */
  private progressOf(attributes: Attributes): ProgressSeries {
    let progress = this.progress.get(attributes);
    if (progress === undefined) {
      progress = new ProgressSeries(attributes, this.spec.progress);
      this.progress.set(attributes, progress);
    }
    return progress;
  }

  /** At a run's end: its last reading without time left, one run fewer in progress, no phase current. */
  private endProgress(run: OpenRun): void {
    const progress = run.progress;
    if (progress === undefined) return;
    if (run.expected !== undefined) {
      // Stryker disable next-line OptionalChaining: each run book gets its observer before any call reaches it
      const reading = this.observer?.progress(run);
      // Stryker disable next-line ConditionalExpression: a followed run with an expected size always has a reading
      if (reading !== undefined) progress.show(reading, true);
      progress.active -= 1;
    }
    progress.leavePhases();
    this.setProgress(run, progress);
  }

  /**
   * Adds a run series' numbers to the instruments at once (a run's end is no hot path), so that its points start
   * when its runs did rather than at a flush, which may be a collection's, after the collection's time. Without
   * instruments yet, or when one throws, they wait for the next flush.
   */
  private deliver(series: RunSeries): void {
    const instruments = this.instruments;
    // A series already queued waits there, with what it has now; one that is not is marked for the attempt.
    if (instruments === undefined || !series.markQueued()) {
      this.enqueue(series);
      return;
    }
    try {
      if (series.addTo(instruments)) this.started = true;
    } catch (error) {
      this.diagnostics.flushFailed(error);
      this.queue.push(series);
    }
  }

  private enqueue(series: RunSeries): void {
    if (series.markQueued()) this.queue.push(series);
  }

  /**
   * At the end of a call that started a point of a series: returns once the millisecond of that start has passed,
   * so that no collection, which runs in a task of its own, takes its time in it. Not while closing: the shutdown
   * waits once for all its runs.
   */
  private passStartMillisecond(): void {
    if (!this.started) return;
    this.started = false;
    if (!this.closed) waitPastMillisecond(Date.now());
  }
}

/** Sets a synchronous gauge: {@link ProgressSeries.each}'s `emit` for synchronous gauges. */
function recordGauge(gauge: GaugeRecorder, value: number, attributes: Attributes): void {
  gauge.record(value, attributes);
}
