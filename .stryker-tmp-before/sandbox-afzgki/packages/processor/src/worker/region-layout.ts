// @ts-nocheck
function stryNS_9fa48() {
  var g = typeof globalThis === 'object' && globalThis && globalThis.Math === Math && globalThis || new Function("return this")();
  var ns = g.__stryker__ || (g.__stryker__ = {});
  if (ns.activeMutant === undefined && g.process && g.process.env && g.process.env.__STRYKER_ACTIVE_MUTANT__) {
    ns.activeMutant = g.process.env.__STRYKER_ACTIVE_MUTANT__;
  }
  function retrieveNS() {
    return ns;
  }
  stryNS_9fa48 = retrieveNS;
  return retrieveNS();
}
stryNS_9fa48();
function stryCov_9fa48() {
  var ns = stryNS_9fa48();
  var cov = ns.mutantCoverage || (ns.mutantCoverage = {
    static: {},
    perTest: {}
  });
  function cover() {
    var c = cov.static;
    if (ns.currentTestId) {
      c = cov.perTest[ns.currentTestId] = cov.perTest[ns.currentTestId] || {};
    }
    var a = arguments;
    for (var i = 0; i < a.length; i++) {
      c[a[i]] = (c[a[i]] || 0) + 1;
    }
  }
  stryCov_9fa48 = cover;
  cover.apply(null, arguments);
}
function stryMutAct_9fa48(id) {
  var ns = stryNS_9fa48();
  function isActive(id) {
    if (ns.activeMutant === id) {
      if (ns.hitCount !== void 0 && ++ns.hitCount > ns.hitLimit) {
        throw new Error('Stryker: Hit count limit reached (' + ns.hitCount + ')');
      }
      return true;
    }
    return false;
  }
  stryMutAct_9fa48 = isActive;
  return isActive(id);
}
import { BUCKETS } from '../histogram/bucket-layout.js';

/**
 * Where everything lies in the shared memory of one worker's place (one SharedArrayBuffer, allocated by the main
 * thread): the same function of the same link gives the worker and the main thread the same layout.
 *
 * - Int32 header: the published slot count of each family, the label heap's end, then per slot its histogram
 *   sequence number and where its labels are (byte offset, length).
 * - Float64 numbers: the invalid measurements of each family, then per slot its cumulative numbers (count, bytes,
 *   milliseconds) and, with histograms, its histogram (count, sum, min, max, zero count, the exponential buckets,
 *   the explicit buckets).
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

/** The slot that stands for every label combination past the bound. */
export const OVERFLOW_SLOT = 0;

/** Label bytes set aside per slot: a scope whose labels do not fit in what is left goes to the overflow slot. */
const LABEL_BYTES_PER_SLOT = 256;

/** Int32 header words. */
const SLOT_COUNTS = 0; // one per family
const LABEL_END = 2;
const HEADER_WORDS = 4;

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
  if (stryMutAct_9fa48("258")) {
    {}
  } else {
    stryCov_9fa48("258");
    const histograms = stryMutAct_9fa48("261") ? explicitCount === undefined : stryMutAct_9fa48("260") ? false : stryMutAct_9fa48("259") ? true : (stryCov_9fa48("259", "260", "261"), explicitCount !== undefined);
    const explicitAt = stryMutAct_9fa48("262") ? H_EXPONENTIAL - BUCKETS : (stryCov_9fa48("262"), H_EXPONENTIAL + BUCKETS);
    const slotCells = histograms ? stryMutAct_9fa48("263") ? explicitAt - explicitCount : (stryCov_9fa48("263"), explicitAt + explicitCount) : H_COUNT;
    const seqStart = HEADER_WORDS;
    const labelWordsStart = stryMutAct_9fa48("264") ? seqStart - 2 * scopes : (stryCov_9fa48("264"), seqStart + (stryMutAct_9fa48("265") ? 2 / scopes : (stryCov_9fa48("265"), 2 * scopes)));
    const int32Words = stryMutAct_9fa48("266") ? labelWordsStart - 4 * scopes : (stryCov_9fa48("266"), labelWordsStart + (stryMutAct_9fa48("267") ? 4 / scopes : (stryCov_9fa48("267"), 4 * scopes)));
    // Float64 cells start on an 8-byte boundary.
    const floatStart = Math.ceil(stryMutAct_9fa48("268") ? int32Words * 2 : (stryCov_9fa48("268"), int32Words / 2));
    const slotsStart = stryMutAct_9fa48("269") ? floatStart - 2 : (stryCov_9fa48("269"), floatStart + 2);
    const floatEnd = stryMutAct_9fa48("270") ? slotsStart - 2 * scopes * slotCells : (stryCov_9fa48("270"), slotsStart + (stryMutAct_9fa48("271") ? 2 * scopes / slotCells : (stryCov_9fa48("271"), (stryMutAct_9fa48("272") ? 2 / scopes : (stryCov_9fa48("272"), 2 * scopes)) * slotCells)));
    const labelStart = stryMutAct_9fa48("273") ? floatEnd / 8 : (stryCov_9fa48("273"), floatEnd * 8);
    const labelBytes = stryMutAct_9fa48("274") ? 2 * scopes / LABEL_BYTES_PER_SLOT : (stryCov_9fa48("274"), (stryMutAct_9fa48("275") ? 2 / scopes : (stryCov_9fa48("275"), 2 * scopes)) * LABEL_BYTES_PER_SLOT);
    return stryMutAct_9fa48("276") ? {} : (stryCov_9fa48("276"), {
      byteLength: stryMutAct_9fa48("277") ? labelStart - labelBytes : (stryCov_9fa48("277"), labelStart + labelBytes),
      scopes,
      slotCells,
      histograms,
      explicitAt,
      slotCountAt: stryMutAct_9fa48("278") ? () => undefined : (stryCov_9fa48("278"), family => stryMutAct_9fa48("279") ? SLOT_COUNTS - family : (stryCov_9fa48("279"), SLOT_COUNTS + family)),
      labelEndAt: LABEL_END,
      seqAt: stryMutAct_9fa48("280") ? () => undefined : (stryCov_9fa48("280"), (family, slot) => stryMutAct_9fa48("281") ? seqStart + family * scopes - slot : (stryCov_9fa48("281"), (stryMutAct_9fa48("282") ? seqStart - family * scopes : (stryCov_9fa48("282"), seqStart + (stryMutAct_9fa48("283") ? family / scopes : (stryCov_9fa48("283"), family * scopes)))) + slot)),
      labelAt: stryMutAct_9fa48("284") ? () => undefined : (stryCov_9fa48("284"), (family, slot) => stryMutAct_9fa48("285") ? labelWordsStart - 2 * (family * scopes + slot) : (stryCov_9fa48("285"), labelWordsStart + (stryMutAct_9fa48("286") ? 2 / (family * scopes + slot) : (stryCov_9fa48("286"), 2 * (stryMutAct_9fa48("287") ? family * scopes - slot : (stryCov_9fa48("287"), (stryMutAct_9fa48("288") ? family / scopes : (stryCov_9fa48("288"), family * scopes)) + slot)))))),
      invalidAt: stryMutAct_9fa48("289") ? () => undefined : (stryCov_9fa48("289"), family => stryMutAct_9fa48("290") ? floatStart - family : (stryCov_9fa48("290"), floatStart + family)),
      slotAt: stryMutAct_9fa48("291") ? () => undefined : (stryCov_9fa48("291"), (family, slot) => stryMutAct_9fa48("292") ? slotsStart - (family * scopes + slot) * slotCells : (stryCov_9fa48("292"), slotsStart + (stryMutAct_9fa48("293") ? (family * scopes + slot) / slotCells : (stryCov_9fa48("293"), (stryMutAct_9fa48("294") ? family * scopes - slot : (stryCov_9fa48("294"), (stryMutAct_9fa48("295") ? family / scopes : (stryCov_9fa48("295"), family * scopes)) + slot)) * slotCells)))),
      labelStart,
      labelBytes
    });
  }
}