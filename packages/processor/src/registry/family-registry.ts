import type { Attributes, Meter } from '@opentelemetry/api';
import type { Diagnostics } from '../diagnostics/diagnostics.js';
import { FirstError } from '../diagnostics/first-error.js';
import { noop } from '../doubles/noop-stats.js';
import type { ExplicitBuckets } from '../histogram/explicit-buckets.js';
import type { HistogramFamily } from '../histogram/histogram-producer.js';
import { LocalHistogram } from '../histogram/local-histogram.js';
import { labelKey, mergeLabels, type ResolvedLabels, ROOT_LABELS, type ScopeLabels } from '../labels.js';
import type { FamilySpec } from '../naming/counter-naming.js';
import type { Family } from '../naming/naming-types.js';
import { OverflowHandle } from '../record/overflow-handle.js';
import { SeriesHandle, type SeriesOwner } from '../record/series-handle.js';
import type { Run } from '../run.js';
import { RunBook } from '../runs/run-book.js';
import type { Stats } from '../stats.js';
import { drainQueue } from './flush-queue.js';
import { createInstruments, type Instruments } from './instruments.js';

/** The attributes of the overflow series, as the OpenTelemetry SDK marks its own. */
const OVERFLOW_ATTRIBUTES: Attributes = Object.freeze({ 'otel.metric.overflow': true });

/**
 * Owns the handles, instruments and flush queue of one family (backup or restore). Flushing costs one pass
 * over the handles recorded on since the last flush. Its kinds (registry-kinds.ts) decide what happens to a
 * handle's new numbers.
 */
export abstract class FamilyRegistry implements SeriesOwner, HistogramFamily {
  /** Measurements dropped as invalid, for the self-metric. */
  private invalid = 0;
  private readonly handles = new Map<string, SeriesHandle>();
  /** The handles whose numbers wait for the next flush. */
  private readonly queue: SeriesHandle[] = [];
  /** Created by {@link bind}; until then measurements stay pending. */
  protected instruments: Instruments | undefined;
  /** The one series of every record past the bound, created on the first. */
  private overflow: SeriesHandle | undefined;
  protected closed = false;
  /** The runs started from this family's handles. */
  private readonly runs: RunBook;
  /** The handle with no label set. */
  readonly root: Stats;
  /**
   * Called on every scope() while the stats have no instruments, to look for a global provider registered since;
   * a no-op once they have them, so that scoping then costs nothing more.
   */
  lookForProvider: () => void = noop;
  /** Called before the histograms are handed to a producer: reads what worker threads recorded into them. */
  beforeHistograms: () => void = noop;
  /** Collections of the provider so far (the collection hook's drains), to tell when a series has been idle. */
  protected collections = 0;

  constructor(
    readonly family: Family,
    private readonly spec: FamilySpec,
    private readonly maxScopes: number,
    protected readonly diagnostics: Diagnostics,
    /** The explicit buckets of every series' histogram, or undefined when histograms are off. */
    private readonly histogramBuckets: ExplicitBuckets | undefined,
  ) {
    this.runs = new RunBook(family, spec.run, () => this.countInvalid(), diagnostics);
    this.root = this.scope(ROOT_LABELS, undefined);
  }

  /**
   * Takes a handle with new pending numbers. After shutdown they have nowhere to go: they are dropped at once,
   * every time (the handle is not marked queued), and said once. Before, the kind decides ({@link accept}).
   */
  deliver(handle: SeriesHandle): void {
    if (this.closed) {
      handle.discard();
      this.diagnostics.recordedAfterShutdown(this.family);
      return;
    }
    this.accept(handle);
  }

  /** What the kind does with a handle's new numbers: queue them for the next flush, or add them at once. */
  protected abstract accept(handle: SeriesHandle): void;

  /**
   * At a series' first add, its histogram starts where its counters do: now, as the SDK reads it (the first add
   * is at the first record, unless that record was made before there were instruments).
   */
  protected startSeries(handle: SeriesHandle): void {
    if (handle.addedIn === -1 && handle.histogram !== undefined) {
      handle.histogram.startedAt = Date.now();
    }
  }

  /** Marks the end of a collection's drain, for {@link open}. */
  collected(): void {
    this.collections += 1;
  }

  /** Creates the instruments on `meter`: from now on flushes add the pending measurements to them. */
  bind(meter: Meter): void {
    this.lookForProvider = noop;
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

  /** Number of memoized handles, for the self-metric. */
  get scopeCount(): number {
    return this.handles.size;
  }

  /** Returns the memoized handle for `given` on top of `parent`, or an overflow handle past the bound. */
  scope(parent: ResolvedLabels, given: ScopeLabels | undefined): Stats {
    this.lookForProvider();
    const labels = mergeLabels(parent, given, this.diagnostics);
    const series = this.seriesFor(labels);
    // Never handed out, the overflow series stands for no label combination: each scope past the bound gets a
    // handle of its own labels on it, so that scoping from it still works.
    return series === this.overflow ? new OverflowHandle(this, labels, series) : series;
  }

  /** The memoized series of `labels`, created if there is room, else the overflow series. */
  seriesFor(labels: ResolvedLabels): SeriesHandle {
    const key = labelKey(labels);
    const existing = this.handles.get(key);
    if (existing !== undefined) return existing;
    // One series is kept for overflow: see cardinality.ts for how the bound fits the SDK's own limit.
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
    this.beforeHistograms();
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

  startRun(attributes: Attributes): Run {
    return this.runs.start(attributes);
  }

  /** Measurements dropped as invalid since the stats were created, for the self-metric. */
  get invalidCount(): number {
    return this.invalid;
  }

  /** Counts measurements a worker thread dropped as invalid (it said so in its own thread). */
  addInvalid(count: number): void {
    this.invalid += count;
  }

  countInvalid(): void {
    this.invalid += 1;
    this.diagnostics.invalidMeasurement(this.family);
  }

  /** Queues a handle for the next flush. */
  protected enqueue(handle: SeriesHandle): void {
    this.queue.push(handle);
  }

  /**
   * Adds every pending measurement to the instruments. A handle whose instrument throws keeps what is left for
   * the next flush, its error kept in `errors`; the others are flushed all the same.
   */
  flush(errors: FirstError): void {
    const instruments = this.instruments;
    // Never into a no-op: with no instruments yet, everything stays pending.
    if (instruments === undefined) return;
    for (const handle of this.queue) handle.addedIn = this.collections;
    drainQueue(this.queue, instruments, errors);
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
