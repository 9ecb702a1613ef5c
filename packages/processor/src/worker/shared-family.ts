import type { ResolvedLabels, ScopeLabels } from '../api/labels.js';
import type { Run } from '../api/run.js';
import type { Stats } from '../api/stats.js';
import { noopRun } from '../base/noop.js';
import type { Diagnostics } from '../diagnostics/diagnostics.js';
import { labelKey, longLabel, MAX_LABEL_LENGTH, mergeLabels, ROOT_LABELS } from '../family/scope-labels.js';
import type { ExplicitBuckets } from '../histogram/explicit-buckets.js';
import { H_MAX, H_MIN, OVERFLOW_SLOT, type Region, readLabels } from '../link/region-layout.js';
import type { Family } from '../naming/naming-types.js';
import { OverflowHandle } from '../series/overflow-handle.js';
import { type SharedOwner, SharedSeriesHandle } from './shared-series-handle.js';

const encoder = new TextEncoder();

/**
 * One family's handles in a worker thread: the memoized handles, each on a slot of the place, at most `maxScopes`
 * of them with the overflow slot; past them, or when the labels no longer fit the label heap, an overflow handle.
 * A new slot is written (its labels, its histogram's min and max), then published by one Atomics.store of the slot
 * count, which the main thread reads with Atomics.load before it reads the slot: no message per scope. A place
 * taken over from a worker that closed or is gone keeps its slots, and this family takes them up as they are.
 */
export class SharedFamily implements SharedOwner {
  private readonly handles = new Map<string, SharedSeriesHandle>();
  private readonly overflow: SharedSeriesHandle;
  /** Slots in use, the overflow slot included. */
  private slots: number;
  /** After `close()`: the place may be another worker's, so nothing more is written into it. */
  private closed = false;
  readonly root: Stats;

  constructor(
    private readonly region: Region,
    private readonly family: number,
    private readonly name: Family,
    private readonly diagnostics: Diagnostics,
    private readonly buckets: ExplicitBuckets | undefined,
  ) {
    const { int32, layout } = region;
    this.slots = Atomics.load(int32, layout.slotCountAt(family));
    if (this.slots === 0) {
      this.initialise(OVERFLOW_SLOT);
      this.slots = 1;
      // Stryker disable next-line CallExpression: the root scope publishes the count right after
      Atomics.store(int32, layout.slotCountAt(family), 1);
    }
    this.overflow = this.handleAt(OVERFLOW_SLOT, ROOT_LABELS);
    for (let slot = 1; slot < this.slots; slot++) {
      const labels = this.labelsAt(slot);
      this.handles.set(labelKey(labels), this.handleAt(slot, labels));
    }
    this.root = this.scope(ROOT_LABELS, undefined);
  }

  /**
   * Returns the memoized handle for `given` on top of `parent`, or an overflow handle past the bound or for a label
   * value longer than MAX_LABEL_LENGTH.
   */
  scope(parent: ResolvedLabels, given: ScopeLabels | undefined): Stats {
    const labels = mergeLabels(parent, given, this.diagnostics);
    // As on the main thread (FamilyRegistry.scope): a value past the bound records into the overflow series.
    const long = longLabel(labels);
    if (long !== undefined) {
      this.diagnostics.labelTooLong(long, labels[long].length, MAX_LABEL_LENGTH);
      return new OverflowHandle(this, labels, this.overflow);
    }
    const key = labelKey(labels);
    const existing = this.handles.get(key);
    if (existing !== undefined) return existing;
    const slot = this.slots;
    if (this.closed || slot >= this.region.layout.scopes || !this.writeLabels(slot, labels)) {
      return new OverflowHandle(this, labels, this.overflow);
    }
    this.initialise(slot);
    this.slots = slot + 1;
    Atomics.store(this.region.int32, this.region.layout.slotCountAt(this.family), this.slots);
    const handle = this.handleAt(slot, labels);
    this.handles.set(key, handle);
    return handle;
  }

  countInvalid(): void {
    if (this.closed) return;
    const { numbers, layout } = this.region;
    const at = layout.invalidAt(this.family);
    numbers[at] = (numbers[at] as number) + 1;
    this.diagnostics.invalidMeasurement(this.name);
  }

  /** Runs are the main thread's: see docs/workers.md. */
  startRun(): Run {
    this.diagnostics.runStartedInWorker();
    return noopRun;
  }

  /** Points every handle at private memory: what is recorded after `close()` goes nowhere. */
  detach(): void {
    this.closed = true;
    const numbers = new Float64Array(this.region.numbers.length);
    const seqs = new Int32Array(this.region.int32.length);
    for (const handle of [this.overflow, ...this.handles.values()]) {
      handle.numbers = numbers;
      handle.seqs = seqs;
    }
  }

  private handleAt(slot: number, labels: ResolvedLabels): SharedSeriesHandle {
    const { layout, numbers, int32 } = this.region;
    return new SharedSeriesHandle(
      this,
      labels,
      numbers,
      layout.slotAt(this.family, slot),
      int32,
      layout.seqAt(this.family, slot),
      this.buckets,
      layout.explicitAt,
      layout.rebaseAt(this.family, slot),
      layout.rebaseCellsAt(this.family, slot),
    );
  }

  /** A histogram's min and max start at the infinities, so that the first duration sets both. */
  private initialise(slot: number): void {
    if (!this.region.layout.histograms) return;
    const at = this.region.layout.slotAt(this.family, slot);
    this.region.numbers[at + H_MIN] = Number.POSITIVE_INFINITY;
    this.region.numbers[at + H_MAX] = Number.NEGATIVE_INFINITY;
  }

  /** Writes a slot's labels at the end of the label heap; false when they do not fit. */
  private writeLabels(slot: number, labels: ResolvedLabels): boolean {
    const { layout, int32, bytes } = this.region;
    const end = Atomics.load(int32, layout.labelEndAt);
    const text = JSON.stringify([labels.component, labels.implementation, labels.operation]);
    const room = bytes.subarray(layout.labelStart + end, layout.labelStart + layout.labelBytes);
    const { read, written } = encoder.encodeInto(text, room);
    if (read !== text.length) return false;
    const labelAt = layout.labelAt(this.family, slot);
    int32[labelAt] = end;
    int32[labelAt + 1] = written;
    Atomics.store(int32, layout.labelEndAt, end + written);
    return true;
  }

  private labelsAt(slot: number): ResolvedLabels {
    return readLabels(this.region, this.family, slot) ?? ROOT_LABELS;
  }
}
