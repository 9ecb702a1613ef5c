import type { FamilyRegistry } from '../family/family-registry.js';
import { LocalHistogram } from '../histogram/local-histogram.js';
import { BYTES, COUNT, H_COUNT, MILLIS, OVERFLOW_SLOT, type Region, readLabels } from '../link/region-layout.js';
import type { SeriesHandle } from '../series/series-handle.js';
import { foldHistogram } from './histogram-fold.js';

/** How often a histogram read that met a record in progress is tried again before the next flush takes it. */
const READ_ATTEMPTS = 4;

/**
 * The main thread's reader of one worker place. Every number of the place is cumulative and written by one worker
 * thread at a time; the reader keeps, per slot, what it already took, and folds only the difference into the main
 * thread's series of the same labels (its pending numbers, its LocalHistogram). So a record is in exactly one
 * fold, whichever flushes come between its stores, and a worker that exits, crashes or is terminated keeps what it
 * recorded: the memory is the main thread's too, and the next flush reads it.
 */
export class PlaceReader {
  private readonly slots: [SlotReader[], SlotReader[]] = [[], []];
  private readonly invalidTaken = [0, 0];
  /** Where one histogram is copied before it is checked against its sequence number. */
  private readonly scratch: Float64Array;

  constructor(
    private readonly region: Region,
    private readonly families: readonly [FamilyRegistry, FamilyRegistry],
  ) {
    // Stryker disable next-line ArithmeticOperator: a larger scratch array: only its first cells are read
    this.scratch = new Float64Array(region.layout.slotCells - H_COUNT);
  }

  /** Folds everything recorded in the place since the last read into the families' series. */
  read(): void {
    const { layout, int32, numbers } = this.region;
    for (let family = 0; family < 2; family++) {
      const registry = this.families[family] as FamilyRegistry;
      const slots = this.slots[family] as SlotReader[];
      // Acquire: the slots published by this count, their labels and first numbers, are visible from here on.
      const published = Atomics.load(int32, layout.slotCountAt(family));
      while (slots.length < published) slots.push(this.slotReader(family, slots.length, registry));
      for (const slot of slots) slot.read(this.region, this.scratch);
      const invalid = numbers[layout.invalidAt(family)] as number;
      const taken = this.invalidTaken[family] as number;
      // Stryker disable next-line EqualityOperator,ConditionalExpression: adds 0 invalid measurements
      if (invalid > taken) {
        registry.addInvalid(invalid - taken);
        this.invalidTaken[family] = invalid;
      }
    }
  }

  private slotReader(family: number, slot: number, registry: FamilyRegistry): SlotReader {
    // Stryker disable next-line ConditionalExpression: the overflow slot's labels are empty: readLabels gives undefined
    const labels = slot === OVERFLOW_SLOT ? undefined : readLabels(this.region, family, slot);
    const series = labels === undefined ? registry.overflowSeries() : registry.seriesFor(labels);
    const { layout } = this.region;
    // Stryker disable next-line ConditionalExpression,LogicalOperator: histograms are in series and links, or neither
    const histogram = layout.histograms && series.histogram instanceof LocalHistogram ? series.histogram : undefined;
    return new SlotReader(layout.slotAt(family, slot), layout.seqAt(family, slot), series, histogram, this.scratch);
  }
}

/** What the main thread took so far of one slot. */
class SlotReader {
  private count = 0;
  private bytes = 0;
  private millis = 0;
  /** The sequence number of the histogram last folded (0: none, the slot's start). */
  private seq = 0;
  /** The histogram cells last folded, from H_COUNT on. */
  private taken: Float64Array;

  constructor(
    private readonly at: number,
    private readonly seqAt: number,
    private readonly series: SeriesHandle,
    private readonly histogram: LocalHistogram | undefined,
    scratch: Float64Array,
  ) {
    this.taken = new Float64Array(histogram === undefined ? 0 : scratch.length);
  }

  read(region: Region, scratch: Float64Array): void {
    const numbers = region.numbers;
    const at = this.at;
    // Each counter on its own: a value not above what was taken adds nothing (one read below it, torn or early,
    // waits for a later flush).
    const count = numbers[at + COUNT] as number;
    const bytes = numbers[at + BYTES] as number;
    const millis = numbers[at + MILLIS] as number;
    // Stryker disable next-line EqualityOperator: cells only grow, so a read is never below what was taken (x64)
    const addCount = count > this.count ? count - this.count : 0;
    // Stryker disable next-line EqualityOperator,ConditionalExpression: cells only grow: a read is never below it (x64)
    const addBytes = bytes > this.bytes ? bytes - this.bytes : 0;
    // Stryker disable next-line EqualityOperator,ConditionalExpression: cells only grow: a read is never below it (x64)
    const addMillis = millis > this.millis ? millis - this.millis : 0;
    if (addCount + addBytes + addMillis > 0) {
      this.count += addCount;
      this.bytes += addBytes;
      this.millis += addMillis;
      this.series.addPending(addCount, addBytes, addMillis);
    }
    // Stryker disable next-line ConditionalExpression: a slot without histogram keeps seq 0: the read returns at once
    if (this.histogram !== undefined) this.readHistogram(region, scratch, this.histogram);
  }

  /**
   * The sequence lock's reading side: the cells are kept only if the same even sequence number was read before and
   * after copying them, so no record was in progress meanwhile. The second read is a compare-exchange that writes
   * nothing new: on arm64 its store-release keeps the copy's loads before it (on x64 every locked instruction
   * does). A slot written during every attempt is folded at a later flush.
   */
  private readHistogram(region: Region, scratch: Float64Array, histogram: LocalHistogram): void {
    const { int32, numbers, layout } = region;
    // Stryker disable next-line EqualityOperator: a fifth attempt needs a record in progress at each of four
    for (let attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
      const before = Atomics.load(int32, this.seqAt);
      // Stryker disable next-line ConditionalExpression: copying an unchanged slot again folds differences of 0
      if (before === this.seq) return;
      if ((before & 1) === 1) continue;
      scratch.set(numbers.subarray(this.at + H_COUNT, this.at + layout.slotCells));
      // Stryker disable next-line ConditionalExpression: seen only when a record lands during the copy (a race)
      if (Atomics.compareExchange(int32, this.seqAt, before, before) !== before) continue;
      foldHistogram(histogram, scratch, this.taken, layout.explicitAt - H_COUNT);
      this.taken.set(scratch);
      this.seq = before;
      return;
    }
  }
}
