import { MAX_PENDING } from '../base/amount.js';
import type { FamilyRegistry } from '../family/family-registry.js';
import { LocalHistogram } from '../histogram/local-histogram.js';
import {
  BYTES,
  COUNT,
  H_COUNT,
  MILLIS,
  OVERFLOW_SLOT,
  REBASE_TAKEN_UP,
  REBASED_BYTES,
  REBASED_MILLIS,
  type Region,
  readLabels,
  TAKEN_BYTES,
  TAKEN_MILLIS,
} from '../link/region-layout.js';
import type { SeriesHandle } from '../series/series-handle.js';
import { foldHistogram, histogramProblem } from './histogram-fold.js';

/** Who hears of a place whose memory holds a value no worker writes (the stats' Diagnostics). */
export interface PlaceProblems {
  damagedPlace(what: string): void;
}

/** A counter cell a worker can have written: a whole number from 0 to MAX_PENDING (NaN fails the comparisons). */
const isCountCell = (value: number): boolean => Number.isInteger(value) && value >= 0 && value <= MAX_PENDING;
/** A sum a worker can have written: from 0 to MAX_PENDING, which a worker never lets a sum pass. */
const isSumCell = (value: number): boolean => value >= 0 && value <= MAX_PENDING;

/** How often a histogram read that met a record in progress is tried again before the next flush takes it. */
const READ_ATTEMPTS = 4;

/**
 * The main thread's reader of one worker place. Every number of the place is cumulative and written by one worker
 * thread at a time; the reader keeps, per slot, what it already took, and folds only the difference into the main
 * thread's series of the same labels (its pending numbers, its LocalHistogram). So a record is in exactly one
 * fold, whichever flushes come between its stores, and a worker that exits, crashes or is terminated keeps what it
 * recorded: the memory is the main thread's too, and the next flush reads it.
 *
 * Every value is read as untrusted: the buffer is the worker's to write, and code of the worker's (or damaged memory)
 * may write anything into it. A value no worker writes (a slot count out of range, a cell that is not a number
 * the record path can reach) stops the reading of this place for good, reported once: what was read of it before stays,
 * and the other places and the main thread's own records are untouched. A slot's numbers are all checked before any
 * of them is folded, so a slot holding a bad value folds nothing of that read.
 */
export class PlaceReader {
  private readonly slots: SlotReader[][];
  private readonly invalidTaken: number[];
  /** Where one histogram is copied before it is checked against its sequence number. */
  private readonly scratch: Float64Array;
  /** True once the place held a value no worker writes: it is not read again. */
  private damaged = false;

  constructor(
    private readonly region: Region,
    private readonly families: readonly FamilyRegistry[],
    private readonly problems: PlaceProblems,
  ) {
    // Stryker disable next-line ArithmeticOperator: a larger scratch array: only its first cells are read
    this.scratch = new Float64Array(region.layout.slotCells - H_COUNT);
    this.slots = families.map(() => []);
    this.invalidTaken = families.map(() => 0);
  }

  /** Folds everything recorded in the place since the last read into the families' series; never throws. */
  read(): void {
    if (this.damaged) return;
    let problem: string | undefined;
    try {
      problem = this.readPlace();
    } catch (error) {
      // Nothing above is known to throw; a flush, a collection or a shutdown must not fail for a worker's memory.
      problem = `a value its read threw on (${String(error)})`;
    }
    if (problem === undefined) return;
    this.damaged = true;
    this.problems.damagedPlace(problem);
  }

  /** One read of the place; what no worker writes, if the place holds it (reading stops there). */
  private readPlace(): string | undefined {
    const { layout, int32, numbers } = this.region;
    for (let family = 0; family < this.families.length; family++) {
      const registry = this.families[family] as FamilyRegistry;
      const slots = this.slots[family] as SlotReader[];
      // Acquire: the slots published by this count, their labels and first numbers, are visible from here on.
      const published = Atomics.load(int32, layout.slotCountAt(family));
      // A worker publishes slots one by one and never takes one back.
      if (published < slots.length || published > layout.scopes) return `a published slot count of ${published}`;
      const invalid = numbers[layout.invalidAt(family)] as number;
      if (!isCountCell(invalid)) return `${invalid} invalid measurements`;
      while (slots.length < published) slots.push(this.slotReader(family, slots.length, registry));
      for (const slot of slots) {
        const slotProblem = slot.read(this.region, this.scratch);
        if (slotProblem !== undefined) return slotProblem;
      }
      const taken = this.invalidTaken[family] as number;
      // Stryker disable next-line EqualityOperator,ConditionalExpression: adds 0 invalid measurements
      if (invalid > taken) {
        registry.addInvalid(invalid - taken);
        this.invalidTaken[family] = invalid;
      }
    }
    return undefined;
  }

  private slotReader(family: number, slot: number, registry: FamilyRegistry): SlotReader {
    // Labels that do not parse, or are too long (FamilyRegistry.seriesFor), send the slot to the overflow series.
    // Stryker disable next-line ConditionalExpression: the overflow slot's labels are empty: readLabels gives undefined
    const labels = slot === OVERFLOW_SLOT ? undefined : readLabels(this.region, family, slot);
    const series = labels === undefined ? registry.overflowSeries() : registry.seriesFor(labels);
    const { layout } = this.region;
    // Stryker disable next-line ConditionalExpression,LogicalOperator: histograms are in series and links, or neither
    const histogram = layout.histograms && series.histogram instanceof LocalHistogram ? series.histogram : undefined;
    return new SlotReader(
      layout.slotAt(family, slot),
      layout.seqAt(family, slot),
      layout.rebaseAt(family, slot),
      layout.rebaseCellsAt(family, slot),
      series,
      histogram,
      this.scratch,
    );
  }
}

/**
 * What the main thread took so far of one slot. Its bytes and milliseconds are in the slot's current base: when the
 * worker rebases the slot (worker/shared-series-handle.ts), taking off its cells what this reader had taken, the
 * reader takes the same amounts off what it keeps, so that the differences stay what the worker recorded.
 */
class SlotReader {
  private count = 0;
  private bytes = 0;
  private millis = 0;
  /** The slot's last rebase taken up (0: none). */
  private round = 0;
  /** The sequence number of the histogram last folded (0: none, the slot's start). */
  private seq = 0;
  /** The histogram cells last folded, from H_COUNT on. */
  private taken: Float64Array;

  constructor(
    private readonly at: number,
    private readonly seqAt: number,
    private readonly rebaseAt: number,
    private readonly rebaseCellsAt: number,
    private readonly series: SeriesHandle,
    private readonly histogram: LocalHistogram | undefined,
    scratch: Float64Array,
  ) {
    // Empty without histograms, as the scratch is.
    this.taken = new Float64Array(scratch.length);
  }

  /** Folds what the slot gained since the last read; what no worker writes instead, if the slot holds it. */
  read(region: Region, scratch: Float64Array): string | undefined {
    const { numbers, int32 } = region;
    const at = this.at;
    // Acquire: a rebase whose number is read here has its cells visible.
    const round = Atomics.load(int32, this.rebaseAt);
    // The worker rebases again only once this reader took up its last rebase: the number is where this reader left
    // it, one further (a rebase being written) or two (one written).
    const ahead = (round - this.round) | 0;
    if (ahead < 0 || ahead > 2) return `a rebase number of ${round}`;
    // Each counter on its own: a value not above what was taken adds nothing (one read below it, torn or early,
    // waits for a later flush).
    const count = numbers[at + COUNT] as number;
    const bytes = numbers[at + BYTES] as number;
    const millis = numbers[at + MILLIS] as number;
    if (!isCountCell(count)) return `an operation count of ${count}`;
    if (!isSumCell(bytes)) return `a byte count of ${bytes}`;
    if (!isSumCell(millis)) return `a duration of ${millis} ms`;
    let rebasedBytes = 0;
    let rebasedMillis = 0;
    if (ahead === 2) {
      // What the worker took off: amounts this reader had taken and published, so no more than it has taken now.
      rebasedBytes = numbers[this.rebaseCellsAt + REBASED_BYTES] as number;
      rebasedMillis = numbers[this.rebaseCellsAt + REBASED_MILLIS] as number;
      if (!(rebasedBytes >= 0 && rebasedBytes <= this.bytes)) return `a rebase of ${rebasedBytes} bytes`;
      if (!(rebasedMillis >= 0 && rebasedMillis <= this.millis)) return `a rebase of ${rebasedMillis} ms`;
    }
    if (this.histogram !== undefined) {
      const problem = this.readHistogram(region, scratch, this.histogram);
      if (problem !== undefined) return problem;
    }
    // The counters are kept only when no rebase was under way or written while they were read: they might be of
    // either base. The compare-exchange writes nothing new; it orders the loads above before it, as in readHistogram.
    if (ahead === 1 || Atomics.compareExchange(int32, this.rebaseAt, round, round) !== round) return undefined;
    // Without a rebase written (ahead 0), this takes off 0 and keeps the round.
    this.bytes -= rebasedBytes;
    this.millis -= rebasedMillis;
    this.round = round;
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
    if (addBytes + addMillis > 0 || ahead === 2) {
      // What the worker may take off at its next rebase: what this reader has taken, in the base it has taken up.
      // Stryker disable next-line ArithmeticOperator: TAKEN_BYTES is 0: the same cell
      numbers[this.rebaseCellsAt + TAKEN_BYTES] = this.bytes;
      numbers[this.rebaseCellsAt + TAKEN_MILLIS] = this.millis;
      // Release: the worker that reads this number reads the amounts above.
      Atomics.store(int32, this.rebaseAt + REBASE_TAKEN_UP, this.round);
    }
    return undefined;
  }

  /**
   * The sequence lock's reading side: the cells are kept only if the same even sequence number was read before and
   * after copying them, so no record was in progress meanwhile. The second read is a compare-exchange that writes
   * nothing new: on arm64 its store-release keeps the copy's loads before it (on x64 every locked instruction
   * does). A slot written during every attempt is folded at a later flush. A consistent copy holding what no
   * worker writes is not folded: its problem is returned.
   */
  private readHistogram(region: Region, scratch: Float64Array, histogram: LocalHistogram): string | undefined {
    const { int32, numbers, layout } = region;
    // Stryker disable next-line EqualityOperator: a fifth attempt needs a record in progress at each of four
    for (let attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
      const before = Atomics.load(int32, this.seqAt);
      // Stryker disable next-line ConditionalExpression: copying an unchanged slot again folds differences of 0
      if (before === this.seq) return undefined;
      if ((before & 1) === 1) continue;
      scratch.set(numbers.subarray(this.at + H_COUNT, this.at + layout.slotCells));
      // Stryker disable next-line ConditionalExpression: seen only when a record lands during the copy (a race)
      if (Atomics.compareExchange(int32, this.seqAt, before, before) !== before) continue;
      const problem = histogramProblem(scratch, this.taken);
      if (problem !== undefined) return problem;
      foldHistogram(histogram, scratch, this.taken, layout.explicitAt - H_COUNT);
      this.taken.set(scratch);
      this.seq = before;
      return undefined;
    }
    return undefined;
  }
}
