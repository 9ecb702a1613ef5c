import type { Attributes, Meter } from '@opentelemetry/api';
import type { ResolvedLabels, ScopeLabels } from '../api/labels.js';
import type { Run } from '../api/run.js';
import type { Stats } from '../api/stats.js';
import { FirstError } from '../base/first-error.js';
import { drainQueue } from '../base/flush-queue.js';
import type { Diagnostics } from '../diagnostics/diagnostics.js';
import type { ExplicitBuckets } from '../histogram/explicit-buckets.js';
import type { HistogramFamily } from '../histogram/histogram-producer.js';
import { LocalHistogram } from '../histogram/local-histogram.js';
import type { FamilySpec } from '../naming/counter-naming.js';
import type { Family } from '../naming/naming-types.js';
import { RunBook } from '../runs/run-book.js';
import { OverflowHandle } from '../series/overflow-handle.js';
import type { ExpectedProgress } from '../series/run-options.js';
import { createInstruments, type Instruments, SeriesHandle, type SeriesOwner } from '../series/series-handle.js';
import { FamilyTimeline } from '../timeline/family-timeline.js';
import { labelKey, longLabel, MAX_LABEL_LENGTH, mergeLabels, ROOT_LABELS } from './scope-labels.js';
import { addNow, openInterval, opensInterval } from './series-interval.js';

/** The attributes of the overflow series, as the OpenTelemetry SDK marks its own. */
const OVERFLOW_ATTRIBUTES: Attributes = Object.freeze({ 'otel.metric.overflow': true });

/** What a registry asks of the stats instance that owns it (instance/stats-instance.ts). */
export interface FamilyHost {
  /**
   * Called on every scope() while the stats have no instruments, to look for a global provider registered since;
   * never once they have them, so that scoping then costs nothing more.
   */
  lookForProvider(): void;
  /** Called before the histograms are handed to a producer: reads what worker threads recorded into them. */
  readWorkers(): void;
}

/**
 * Owns the handles, instruments and flush queue of one family (backup, restore, verify or prune). Flushing costs one pass
 * over the handles recorded on since the last flush. Of two kinds: buffered (the default), where a handle's new
 * numbers wait for the next flush, so that a record costs a few nanoseconds; and direct (`flushIntervalMillis:
 * 0`), where every record goes to the instruments at once, which costs one OpenTelemetry call per instrument.
 */
export class FamilyRegistry implements SeriesOwner, HistogramFamily {
  /** Measurements dropped as invalid, for the self-metric. */
  private invalid = 0;
  private readonly handles = new Map<string, SeriesHandle>();
  /** The handles whose numbers wait for the next flush. */
  private readonly queue: SeriesHandle[] = [];
  /** Created by {@link bind}; until then measurements stay pending. */
  private instruments: Instruments | undefined;
  /** The one series of every record past the bound, created on the first. */
  private overflow: SeriesHandle | undefined;
  private closed = false;
  /** The runs started from this family's handles. */
  private readonly runs: RunBook;
  /** The handle with no label set. */
  readonly root: Stats;
  private readonly diagnostics: Diagnostics;
  /** Sampled around every drain of the flush queue; see {@link attachTimeline}. */
  private timeline: FamilyTimeline | undefined;
  /** Collections of the provider so far (the collection hook's drains), to tell when a series has been idle. */
  private collections = 0;

  constructor(
    readonly family: Family,
    private readonly spec: FamilySpec,
    private readonly maxScopes: number,
    private readonly host: FamilyHost & { readonly diagnostics: Diagnostics },
    /** The explicit buckets of every series' histogram, or undefined when histograms are off. */
    private readonly histogramBuckets: ExplicitBuckets | undefined,
    /** True for the direct kind: every record to the instruments at once. */
    private readonly direct: boolean,
  ) {
    this.diagnostics = host.diagnostics;
    this.runs = new RunBook(family, spec.run, (say) => this.countInvalid(say), this.diagnostics);
    // The root is no scope() of the user's: the host is not built yet, and is not asked to look for a provider.
    this.root = this.seriesFor(ROOT_LABELS);
  }

  /**
   * Takes a handle with new pending numbers. After shutdown they have nowhere to go: they are dropped at once,
   * every time (the handle is not marked queued), and reported once. Before, a buffered registry queues them for the
   * next flush, a direct one adds them to the instruments at once (queued while it has none).
   */
  deliver(handle: SeriesHandle): void {
    if (this.closed) {
      handle.discard();
      this.diagnostics.recordedAfterShutdown(this.family);
      return;
    }
    const instruments = this.instruments;
    // A buffered series' first numbers, or its first after a whole collection without an add, go at once too.
    if (!this.direct && instruments !== undefined && opensInterval(handle, this.collections)) {
      // The timeline hears of it as of a flush of this handle alone: what the instruments took.
      // Stryker disable next-line OptionalChaining: the instance attaches both timelines before any record or flush
      this.timeline?.before([handle]);
      openInterval(handle, instruments, this.collections, this.diagnostics);
      // Stryker disable next-line OptionalChaining: the instance attaches both timelines before any record or flush
      this.timeline?.after(false);
    }
    if (!this.direct || instruments === undefined) {
      this.queue.push(handle);
      return;
    }
    // Recording never throws: what an instrument refuses is queued for the next flush and reported through `diag`.
    try {
      addNow(handle, instruments, this.collections);
    } catch (error) {
      this.queue.push(handle);
      this.diagnostics.flushFailed(error);
    }
  }

  /** Marks the end of a collection's drain (series-interval.ts). */
  collected(): void {
    this.collections += 1;
    this.runs.collected();
  }

  /** Creates the instruments on `meter`: from now on flushes add the pending measurements to them. */
  bind(meter: Meter): void {
    this.instruments = createInstruments(meter, this.spec);
    this.runs.bind(meter);
  }

  /** Operations recorded and not yet added to the instruments. */
  get pendingOperations(): number {
    let count = 0;
    for (const handle of this.queue) count += handle.count;
    return count;
  }

  /** Runs ended and not yet added to the instruments. */
  get pendingRuns(): number {
    return this.runs.pendingRuns;
  }

  /**
   * The series that hold numbers, for the self-metric: recorded on, pending or added to the instruments. The root
   * and the handles only scoped from hold none; the overflow series is not counted.
   */
  get scopeCount(): number {
    let count = 0;
    for (const handle of this.handles.values()) if (handle.queued || handle.addedIn !== -1) count += 1;
    return count;
  }

  /**
   * Returns the memoized handle for `given` on top of `parent`, or an overflow handle past the bound or for a label
   * value longer than MAX_LABEL_LENGTH.
   */
  scope(parent: ResolvedLabels, given: ScopeLabels | undefined): Stats {
    // Stryker disable next-line ConditionalExpression: lookForProvider returns at once once the instruments are set
    if (this.instruments === undefined) this.host.lookForProvider();
    const labels = mergeLabels(parent, given, this.diagnostics);
    const long = longLabel(labels);
    if (long !== undefined) this.diagnostics.labelTooLong(long, labels[long].length, MAX_LABEL_LENGTH);
    const series = this.seriesFor(labels);
    // Never handed out, the overflow series stands for no label combination: each scope past the bound gets a
    // handle of its own labels on it, so that scoping from it still works.
    return series === this.overflow ? new OverflowHandle(this, labels, series) : series;
  }

  /**
   * The memoized series of `labels`, created if there is room and every value is short enough, else the overflow
   * series (checked before the key is built: a long value would make a key as long).
   */
  seriesFor(labels: ResolvedLabels): SeriesHandle {
    if (longLabel(labels) !== undefined) return this.overflowSeries();
    const key = labelKey(labels);
    const existing = this.handles.get(key);
    if (existing !== undefined) return existing;
    // One series is kept for overflow: see cardinalityLimitFor below for how the bound fits the SDK's own limit.
    if (this.handles.size >= this.maxScopes - 1) return this.overflowSeries();
    const attributes = Object.freeze({
      component: labels.component,
      implementation: labels.implementation,
      operation: labels.operation,
    });
    const handle = this.newSeries(labels, attributes);
    this.handles.set(key, handle);
    return handle;
  }

  /** The one series of every record past the bound, created on the first; it scopes like the root. */
  overflowSeries(): SeriesHandle {
    this.overflow ??= this.newSeries(ROOT_LABELS, OVERFLOW_ATTRIBUTES);
    return this.overflow;
  }

  /** The histogram instrument's name, for the producers. */
  get name(): string {
    return this.spec.duration.name;
  }

  get description(): string {
    return this.spec.duration.description;
  }

  /** Calls `each` with every series' histogram, the overflow series' included; none when histograms are off. */
  forEachHistogram(each: (attributes: Attributes, histogram: LocalHistogram) => void): void {
    this.host.readWorkers();
    for (const handle of this.handles.values()) {
      if (handle.histogram !== undefined) each(handle.attributes, handle.histogram);
    }
    const overflow = this.overflow;
    if (overflow?.histogram !== undefined) each(overflow.attributes, overflow.histogram);
  }

  /** A series handle, with its latency histogram when the stats keep them. */
  private newSeries(labels: ResolvedLabels, attributes: Attributes): SeriesHandle {
    const buckets = this.histogramBuckets;
    return new SeriesHandle(this, labels, attributes, buckets === undefined ? undefined : new LocalHistogram(buckets));
  }

  startRun(attributes: Attributes, expected?: ExpectedProgress): Run {
    return this.runs.start(attributes, expected);
  }

  /** Creates the family's timeline, which then hears of every flush and run (timeline/family-timeline.ts). */
  attachTimeline(readWorkers: () => void): FamilyTimeline {
    const timeline = new FamilyTimeline(this.family, (each) => this.forEachSeries(each), readWorkers, !this.direct);
    this.timeline = timeline;
    this.runs.observer = timeline;
    return timeline;
  }

  /** Calls `each` with every series, the overflow series included. */
  private forEachSeries(each: (handle: SeriesHandle) => void): void {
    for (const handle of this.handles.values()) each(handle);
    if (this.overflow !== undefined) each(this.overflow);
  }

  /** Measurements dropped as invalid since the stats were created, for the self-metric. */
  get invalidCount(): number {
    return this.invalid;
  }

  /** Counts measurements a worker thread dropped as invalid (it reported them in its own thread). */
  addInvalid(count: number): void {
    this.invalid += count;
  }

  /** Counts an invalid measurement, reported once through diag unless `say` is false (the caller said what it was). */
  countInvalid(say = true): void {
    this.invalid += 1;
    if (say) this.diagnostics.invalidMeasurement(this.family);
  }

  /**
   * Adds every pending measurement to the instruments. A handle whose instrument throws keeps what is left for
   * the next flush, its error kept in `errors`; the others are flushed all the same.
   */
  flush(errors: FirstError): void {
    const instruments = this.instruments;
    // Never into a no-op: with no instruments yet, everything stays pending.
    if (instruments === undefined) return;
    // Stryker disable next-line OptionalChaining: the instance attaches both timelines before any record or flush
    this.timeline?.before(this.queue);
    for (const handle of this.queue) handle.addedIn = this.collections;
    drainQueue(this.queue, instruments, errors);
    // Stryker disable next-line OptionalChaining: the instance attaches both timelines before any record or flush
    this.timeline?.after();
    this.runs.flush(errors);
  }

  /** Ends the runs in progress as interrupted: the first step of a shutdown, so that the last flush carries them. */
  endRuns(): void {
    this.runs.close();
  }

  /**
   * Flushes for the last time; later measurements are dropped. What an instrument refused is lost: reported
   * through `diag`, its error kept in `errors`.
   */
  close(errors: FirstError): void {
    const own = new FirstError();
    this.flush(own);
    this.closed = true;
    const lost = own.failure;
    if (lost !== undefined) {
      this.diagnostics.lostAtShutdown(this.family, this.queue.length, lost.error);
      errors.keep(lost.error);
    }
    // What an instrument refused is lost: its handles start afresh, so that later records are dropped too.
    for (const handle of this.queue) handle.discard();
    this.queue.length = 0;
  }
}

/**
 * How the stats' bound fits the OpenTelemetry SDK's own per-instrument limit, `aggregationCardinalityLimit`
 * (2000 unless a View or reader sets it). With a limit L the SDK keeps L - 1 attribute sets per instrument and
 * collection and folds every further set into its own overflow series (`otel.metric.overflow=true`; read
 * `DeltaMetricProcessor` in sdk-metrics 2.x and 3.x). The stats' overflow series has the same attributes, but
 * when it is recorded first in a collection it takes one of the L - 1 places like any other set. The stats put
 * at most `maxScopes` series into an instrument, their overflow series included (`maxScopes - 1` label
 * combinations, the root's among them), so the SDK keeps every one of them when L >= maxScopes + 1.
 */
const SDK_DEFAULT_CARDINALITY_LIMIT = 2000;

/** The default `maxScopes`: the most series a provider with the SDK's stock limit keeps without folding. */
export const DEFAULT_MAX_SCOPES = SDK_DEFAULT_CARDINALITY_LIMIT - 1;

/** The SDK `aggregationCardinalityLimit` that keeps every series of stats bounded by `maxScopes`. */
export function cardinalityLimitFor(maxScopes: number): number {
  return Math.max(SDK_DEFAULT_CARDINALITY_LIMIT, maxScopes + 1);
}
