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
import type { LocalHistogram } from '../histogram/local-histogram.js';
import { H_COUNT, H_EXPONENTIAL, H_MAX, H_MIN, H_SUM, H_ZERO } from './region-layout.js';

// Cells of a histogram copied from a slot, from its H_COUNT cell on.
const COUNT = 0;
const SUM = stryMutAct_9fa48("30") ? H_SUM + H_COUNT : (stryCov_9fa48("30"), H_SUM - H_COUNT);
const MIN = stryMutAct_9fa48("31") ? H_MIN + H_COUNT : (stryCov_9fa48("31"), H_MIN - H_COUNT);
const MAX = stryMutAct_9fa48("32") ? H_MAX + H_COUNT : (stryCov_9fa48("32"), H_MAX - H_COUNT);
const ZERO = stryMutAct_9fa48("33") ? H_ZERO + H_COUNT : (stryCov_9fa48("33"), H_ZERO - H_COUNT);
const EXPONENTIAL = stryMutAct_9fa48("34") ? H_EXPONENTIAL + H_COUNT : (stryCov_9fa48("34"), H_EXPONENTIAL - H_COUNT);

/**
 * Adds to `histogram` what a worker's slot gained between two consistent reads of it, `taken` then `read` (both
 * copied from the slot's H_COUNT cell on, `explicit` the first explicit bucket among them): count, sum and every
 * bucket by their difference, min and max by comparison. The LocalHistogram then holds the main thread's records
 * and the workers' alike, for the producers to hand over as they do the main thread's alone.
 */
export function foldHistogram(histogram: LocalHistogram, read: Float64Array, taken: Float64Array, explicit: number): void {
  if (stryMutAct_9fa48("35")) {
    {}
  } else {
    stryCov_9fa48("35");
    const count = stryMutAct_9fa48("36") ? (read[COUNT] as number) + (taken[COUNT] as number) : (stryCov_9fa48("36"), (read[COUNT] as number) - (taken[COUNT] as number));
    if (stryMutAct_9fa48("40") ? count > 0 : stryMutAct_9fa48("39") ? count < 0 : stryMutAct_9fa48("38") ? false : stryMutAct_9fa48("37") ? true : (stryCov_9fa48("37", "38", "39", "40"), count <= 0)) return;
    stryMutAct_9fa48("41") ? histogram.count -= count : (stryCov_9fa48("41"), histogram.count += count);
    stryMutAct_9fa48("42") ? histogram.sumMillis -= (read[SUM] as number) - (taken[SUM] as number) : (stryCov_9fa48("42"), histogram.sumMillis += stryMutAct_9fa48("43") ? (read[SUM] as number) + (taken[SUM] as number) : (stryCov_9fa48("43"), (read[SUM] as number) - (taken[SUM] as number)));
    stryMutAct_9fa48("44") ? histogram.zeroCount -= (read[ZERO] as number) - (taken[ZERO] as number) : (stryCov_9fa48("44"), histogram.zeroCount += stryMutAct_9fa48("45") ? (read[ZERO] as number) + (taken[ZERO] as number) : (stryCov_9fa48("45"), (read[ZERO] as number) - (taken[ZERO] as number)));
    if (stryMutAct_9fa48("49") ? read[MIN] as number >= histogram.minMillis : stryMutAct_9fa48("48") ? read[MIN] as number <= histogram.minMillis : stryMutAct_9fa48("47") ? false : stryMutAct_9fa48("46") ? true : (stryCov_9fa48("46", "47", "48", "49"), read[MIN] as number < histogram.minMillis)) histogram.minMillis = read[MIN] as number;
    if (stryMutAct_9fa48("53") ? read[MAX] as number <= histogram.maxMillis : stryMutAct_9fa48("52") ? read[MAX] as number >= histogram.maxMillis : stryMutAct_9fa48("51") ? false : stryMutAct_9fa48("50") ? true : (stryCov_9fa48("50", "51", "52", "53"), read[MAX] as number > histogram.maxMillis)) histogram.maxMillis = read[MAX] as number;
    if (stryMutAct_9fa48("54")) {
      ;
    } else {
      stryCov_9fa48("54");
      addDifferences(histogram.exponential, read, taken, EXPONENTIAL, BUCKETS);
    }
    if (stryMutAct_9fa48("55")) {
      ;
    } else {
      stryCov_9fa48("55");
      addDifferences(histogram.explicit, read, taken, explicit, histogram.explicit.length);
    }
  }
}
function addDifferences(into: Float64Array, read: Float64Array, taken: Float64Array, from: number, length: number): void {
  if (stryMutAct_9fa48("56")) {
    {}
  } else {
    stryCov_9fa48("56");
    for (let i = 0; stryMutAct_9fa48("59") ? i >= length : stryMutAct_9fa48("58") ? i <= length : stryMutAct_9fa48("57") ? false : (stryCov_9fa48("57", "58", "59"), i < length); stryMutAct_9fa48("60") ? i-- : (stryCov_9fa48("60"), i++)) {
      if (stryMutAct_9fa48("61")) {
        {}
      } else {
        stryCov_9fa48("61");
        const added = stryMutAct_9fa48("62") ? (read[from + i] as number) + (taken[from + i] as number) : (stryCov_9fa48("62"), (read[from + i] as number) - (taken[from + i] as number));
        if (stryMutAct_9fa48("65") ? added === 0 : stryMutAct_9fa48("64") ? false : stryMutAct_9fa48("63") ? true : (stryCov_9fa48("63", "64", "65"), added !== 0)) into[i] = stryMutAct_9fa48("66") ? (into[i] as number) - added : (stryCov_9fa48("66"), (into[i] as number) + added);
      }
    }
  }
}