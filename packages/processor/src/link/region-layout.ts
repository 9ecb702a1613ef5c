import type { ResolvedLabels } from '../api/labels.js';
import { decodeUtf8 } from '../base/values.js';
import { BUCKETS } from '../histogram/bucket-layout.js';

/**
 * Where everything lies in the shared memory of one worker's place (one SharedArrayBuffer, allocated by the main
 * thread): the same function of the same link gives the worker and the main thread the same layout.
 *
 * - Int32 header: the published slot count of each family, the label heap's end, then per slot its histogram
 *   sequence number, where its labels are (byte offset, length), and its rebase words (the worker's rebase number,
 *   the rebase number the main thread has taken up).
 * - Float64 numbers: the invalid measurements of each family, then per slot its cumulative numbers (count, bytes,
 *   milliseconds) and, with histograms, its histogram (count, sum, min, max, zero count, the exponential buckets,
 *   the explicit buckets); then per slot its rebase cells: the bytes and milliseconds the main thread has taken
 *   (in the slot's current base), and what the worker's last rebase took off the slot's bytes and milliseconds.
 * - The label heap: each slot's labels as UTF-8 JSON, `[component, implementation, operation]`.
 *
 * Slot 0 of each family is its overflow series (labels of length 0); the others are label combinations in the order
 * the worker first scoped them.
 */

/** The cumulative numbers of a slot, in Float64 cells from the slot's first. */
export const COUNT = 0;
export const BYTES = 1;
export const MILLIS = 2;
/** The histogram of a slot, from its {@link H_COUNT} cell on. */
export const H_COUNT = 3;
export const H_SUM = 4;
export const H_MIN = 5;
export const H_MAX = 6;
export const H_ZERO = 7;
export const H_EXPONENTIAL = 8;

/**
 * A slot's rebase cells, in Float64 cells from {@link RegionLayout.rebaseCellsAt}: what the main thread has taken of
 * the bytes and milliseconds (written by the main thread after each read), and what the last rebase took off them
 * (written by the worker). Its Int32 words, from {@link RegionLayout.rebaseAt}: the worker's rebase number (odd while
 * a rebase is being written), then the one the main thread has taken up.
 */
export const TAKEN_BYTES = 0;
export const TAKEN_MILLIS = 1;
export const REBASED_BYTES = 2;
export const REBASED_MILLIS = 3;
const REBASE_CELLS = 4;
export const REBASE_TAKEN_UP = 1;

/** The slot that stands for every label combination past the bound. */
export const OVERFLOW_SLOT = 0;

/** Label bytes set aside per slot: a scope whose labels do not fit in what is left goes to the overflow slot. */
const LABEL_BYTES_PER_SLOT = 256;

/** The families a place holds, in the order of FAMILIES (naming/ sits above this layer). */
export const FAMILY_COUNT = 4;

/** Int32 header words. */
const SLOT_COUNTS = 0; // one per family
const LABEL_END = FAMILY_COUNT;
const HEADER_WORDS = FAMILY_COUNT + 2;

/** The layout of one place, for `scopes` slots per family and, with histograms, `explicitCount` explicit buckets. */
export interface RegionLayout {
  /** Bytes of the SharedArrayBuffer. */
  readonly byteLength: number;
  /** Slots per family, the overflow slot included. */
  readonly scopes: number;
  /** Float64 cells per slot. */
  readonly slotCells: number;
  /** True when slots keep a histogram. */
  readonly histograms: boolean;
  /** The first explicit bucket's cell within a slot. */
  readonly explicitAt: number;
  /** Int32 index of a family's published slot count. */
  slotCountAt(family: number): number;
  /** Int32 index of the label heap's end (bytes used, from {@link labelStart}). */
  readonly labelEndAt: number;
  /** Int32 index of a slot's histogram sequence number. */
  seqAt(family: number, slot: number): number;
  /** Int32 index of a slot's label offset; its length is in the next word. */
  labelAt(family: number, slot: number): number;
  /** Int32 index of a slot's rebase number; the number the main thread took up is {@link REBASE_TAKEN_UP} on. */
  rebaseAt(family: number, slot: number): number;
  /** Float64 index of a slot's rebase cells ({@link TAKEN_BYTES} and on). */
  rebaseCellsAt(family: number, slot: number): number;
  /** Float64 index of a family's invalid measurements. */
  invalidAt(family: number): number;
  /** Float64 index of a slot's first cell. */
  slotAt(family: number, slot: number): number;
  /** Byte offset and size of the label heap. */
  readonly labelStart: number;
  readonly labelBytes: number;
}

/** The layout for `scopes` slots per family; `explicitCount` explicit buckets, or undefined for no histograms. */
export function regionLayout(scopes: number, explicitCount: number | undefined): RegionLayout {
  const histograms = explicitCount !== undefined;
  const explicitAt = H_EXPONENTIAL + BUCKETS;
  const slotCells = histograms ? explicitAt + explicitCount : H_COUNT;
  const slots = FAMILY_COUNT * scopes;
  const seqStart = HEADER_WORDS;
  const labelWordsStart = seqStart + slots;
  const rebaseWordsStart = labelWordsStart + 2 * slots;
  const int32Words = rebaseWordsStart + 2 * slots;
  // Float64 cells start on an 8-byte boundary.
  const floatStart = Math.ceil(int32Words / 2);
  const slotsStart = floatStart + FAMILY_COUNT;
  const rebaseCellsStart = slotsStart + slots * slotCells;
  const floatEnd = rebaseCellsStart + slots * REBASE_CELLS;
  const labelStart = floatEnd * 8;
  const labelBytes = slots * LABEL_BYTES_PER_SLOT;
  return {
    byteLength: labelStart + labelBytes,
    scopes,
    slotCells,
    histograms,
    explicitAt,
    slotCountAt: (family) => SLOT_COUNTS + family,
    labelEndAt: LABEL_END,
    seqAt: (family, slot) => seqStart + family * scopes + slot,
    labelAt: (family, slot) => labelWordsStart + 2 * (family * scopes + slot),
    rebaseAt: (family, slot) => rebaseWordsStart + 2 * (family * scopes + slot),
    rebaseCellsAt: (family, slot) => rebaseCellsStart + REBASE_CELLS * (family * scopes + slot),
    invalidAt: (family) => floatStart + family,
    slotAt: (family, slot) => slotsStart + (family * scopes + slot) * slotCells,
    labelStart,
    labelBytes,
  };
}

/** The views of one place's shared memory. */
export interface Region {
  readonly layout: RegionLayout;
  readonly int32: Int32Array;
  readonly numbers: Float64Array;
  readonly bytes: Uint8Array;
}

/** The labels of a published slot; undefined for the overflow slot (or labels that do not parse). */
export function readLabels(region: Region, family: number, slot: number): ResolvedLabels | undefined {
  const { layout, int32, bytes } = region;
  const labelAt = layout.labelAt(family, slot);
  const length = int32[labelAt + 1] as number;
  // Stryker disable next-line ConditionalExpression: the overflow slot's empty label reads into overflow anyway
  if (length === 0) return undefined;
  // The words are a worker's to write: text they point at outside the heap (or a negative length) does not parse
  // as three labels, and is read as none like any other text that does not.
  const start = layout.labelStart + (int32[labelAt] as number);
  let parsed: unknown;
  try {
    parsed = JSON.parse(decodeUtf8(bytes, start, start + length));
  } catch /* Stryker disable next-line BlockStatement: labels hold only the JSON the worker wrote */ {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || !parsed.every((label) => typeof label === 'string')) {
    return undefined;
  }
  const [component, implementation, operation] = parsed as [string, string, string];
  return { component, implementation, operation };
}
