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
import { LocalHistogram } from '../histogram/local-histogram.js';
import type { SeriesHandle } from '../record/series-handle.js';
import type { FamilyRegistry } from '../registry/family-registry.js';
import { foldHistogram } from './histogram-fold.js';
import { BYTES, COUNT, H_COUNT, MILLIS, OVERFLOW_SLOT } from './region-layout.js';
import { type Region, readLabels } from './shared-family.js';

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
  private readonly slots: [SlotReader[], SlotReader[]] = stryMutAct_9fa48("168") ? [] : (stryCov_9fa48("168"), [stryMutAct_9fa48("169") ? ["Stryker was here"] : (stryCov_9fa48("169"), []), stryMutAct_9fa48("170") ? ["Stryker was here"] : (stryCov_9fa48("170"), [])]);
  private readonly invalidTaken = stryMutAct_9fa48("171") ? [] : (stryCov_9fa48("171"), [0, 0]);
  /** Where one histogram is copied before it is checked against its sequence number. */
  private readonly scratch: Float64Array;
  constructor(private readonly region: Region, private readonly families: readonly [FamilyRegistry, FamilyRegistry]) {
    if (stryMutAct_9fa48("172")) {
      {}
    } else {
      stryCov_9fa48("172");
      this.scratch = new Float64Array(stryMutAct_9fa48("173") ? region.layout.slotCells + H_COUNT : (stryCov_9fa48("173"), region.layout.slotCells - H_COUNT));
    }
  }

  /** Folds everything recorded in the place since the last read into the families' series. */
  read(): void {
    if (stryMutAct_9fa48("174")) {
      {}
    } else {
      stryCov_9fa48("174");
      const {
        layout,
        int32,
        numbers
      } = this.region;
      for (let family = 0; stryMutAct_9fa48("177") ? family >= 2 : stryMutAct_9fa48("176") ? family <= 2 : stryMutAct_9fa48("175") ? false : (stryCov_9fa48("175", "176", "177"), family < 2); stryMutAct_9fa48("178") ? family-- : (stryCov_9fa48("178"), family++)) {
        if (stryMutAct_9fa48("179")) {
          {}
        } else {
          stryCov_9fa48("179");
          const registry = this.families[family] as FamilyRegistry;
          const slots = this.slots[family] as SlotReader[];
          // Acquire: the slots published by this count, their labels and first numbers, are visible from here on.
          const published = Atomics.load(int32, layout.slotCountAt(family));
          while (stryMutAct_9fa48("182") ? slots.length >= published : stryMutAct_9fa48("181") ? slots.length <= published : stryMutAct_9fa48("180") ? false : (stryCov_9fa48("180", "181", "182"), slots.length < published)) if (stryMutAct_9fa48("183")) {
            ;
          } else {
            stryCov_9fa48("183");
            slots.push(this.slotReader(family, slots.length, registry));
          }
          for (const slot of slots) if (stryMutAct_9fa48("184")) {
            ;
          } else {
            stryCov_9fa48("184");
            slot.read(this.region, this.scratch);
          }
          const invalid = numbers[layout.invalidAt(family)] as number;
          const taken = this.invalidTaken[family] as number;
          if (stryMutAct_9fa48("188") ? invalid <= taken : stryMutAct_9fa48("187") ? invalid >= taken : stryMutAct_9fa48("186") ? false : stryMutAct_9fa48("185") ? true : (stryCov_9fa48("185", "186", "187", "188"), invalid > taken)) {
            if (stryMutAct_9fa48("189")) {
              {}
            } else {
              stryCov_9fa48("189");
              registry.addInvalid(stryMutAct_9fa48("191") ? invalid + taken : (stryCov_9fa48("191"), invalid - taken));
              this.invalidTaken[family] = invalid;
            }
          }
        }
      }
    }
  }
  private slotReader(family: number, slot: number, registry: FamilyRegistry): SlotReader {
    if (stryMutAct_9fa48("192")) {
      {}
    } else {
      stryCov_9fa48("192");
      const labels = (stryMutAct_9fa48("195") ? slot !== OVERFLOW_SLOT : stryMutAct_9fa48("194") ? false : stryMutAct_9fa48("193") ? true : (stryCov_9fa48("193", "194", "195"), slot === OVERFLOW_SLOT)) ? undefined : readLabels(this.region, family, slot);
      const series = (stryMutAct_9fa48("198") ? labels !== undefined : stryMutAct_9fa48("197") ? false : stryMutAct_9fa48("196") ? true : (stryCov_9fa48("196", "197", "198"), labels === undefined)) ? registry.overflowSeries() : registry.seriesFor(labels);
      const {
        layout
      } = this.region;
      const histogram = (stryMutAct_9fa48("201") ? layout.histograms || series.histogram instanceof LocalHistogram : stryMutAct_9fa48("200") ? false : stryMutAct_9fa48("199") ? true : (stryCov_9fa48("199", "200", "201"), layout.histograms && series.histogram instanceof LocalHistogram)) ? series.histogram : undefined;
      return new SlotReader(layout.slotAt(family, slot), layout.seqAt(family, slot), series, histogram, this.scratch);
    }
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
  constructor(private readonly at: number, private readonly seqAt: number, private readonly series: SeriesHandle, private readonly histogram: LocalHistogram | undefined, scratch: Float64Array) {
    if (stryMutAct_9fa48("202")) {
      {}
    } else {
      stryCov_9fa48("202");
      this.taken = new Float64Array((stryMutAct_9fa48("205") ? histogram !== undefined : stryMutAct_9fa48("204") ? false : stryMutAct_9fa48("203") ? true : (stryCov_9fa48("203", "204", "205"), histogram === undefined)) ? 0 : scratch.length);
    }
  }
  read(region: Region, scratch: Float64Array): void {
    if (stryMutAct_9fa48("206")) {
      {}
    } else {
      stryCov_9fa48("206");
      const numbers = region.numbers;
      const at = this.at;
      // Each counter on its own: a value not above what was taken adds nothing (one read below it, torn or early,
      // waits for a later flush).
      const count = numbers[at + COUNT] as number;
      const bytes = numbers[at + BYTES] as number;
      const millis = numbers[at + MILLIS] as number;
      const addCount = (stryMutAct_9fa48("210") ? count <= this.count : stryMutAct_9fa48("209") ? count >= this.count : stryMutAct_9fa48("208") ? false : stryMutAct_9fa48("207") ? true : (stryCov_9fa48("207", "208", "209", "210"), count > this.count)) ? stryMutAct_9fa48("211") ? count + this.count : (stryCov_9fa48("211"), count - this.count) : 0;
      const addBytes = (stryMutAct_9fa48("215") ? bytes <= this.bytes : stryMutAct_9fa48("214") ? bytes >= this.bytes : stryMutAct_9fa48("213") ? false : stryMutAct_9fa48("212") ? true : (stryCov_9fa48("212", "213", "214", "215"), bytes > this.bytes)) ? stryMutAct_9fa48("216") ? bytes + this.bytes : (stryCov_9fa48("216"), bytes - this.bytes) : 0;
      const addMillis = (stryMutAct_9fa48("220") ? millis <= this.millis : stryMutAct_9fa48("219") ? millis >= this.millis : stryMutAct_9fa48("218") ? false : stryMutAct_9fa48("217") ? true : (stryCov_9fa48("217", "218", "219", "220"), millis > this.millis)) ? stryMutAct_9fa48("221") ? millis + this.millis : (stryCov_9fa48("221"), millis - this.millis) : 0;
      if (stryMutAct_9fa48("225") ? addCount + addBytes + addMillis <= 0 : stryMutAct_9fa48("224") ? addCount + addBytes + addMillis >= 0 : stryMutAct_9fa48("223") ? false : stryMutAct_9fa48("222") ? true : (stryCov_9fa48("222", "223", "224", "225"), (stryMutAct_9fa48("226") ? addCount + addBytes - addMillis : (stryCov_9fa48("226"), (stryMutAct_9fa48("227") ? addCount - addBytes : (stryCov_9fa48("227"), addCount + addBytes)) + addMillis)) > 0)) {
        if (stryMutAct_9fa48("228")) {
          {}
        } else {
          stryCov_9fa48("228");
          stryMutAct_9fa48("229") ? this.count -= addCount : (stryCov_9fa48("229"), this.count += addCount);
          stryMutAct_9fa48("230") ? this.bytes -= addBytes : (stryCov_9fa48("230"), this.bytes += addBytes);
          stryMutAct_9fa48("231") ? this.millis -= addMillis : (stryCov_9fa48("231"), this.millis += addMillis);
          if (stryMutAct_9fa48("232")) {
            ;
          } else {
            stryCov_9fa48("232");
            this.series.addPending(addCount, addBytes, addMillis);
          }
        }
      }
      if (stryMutAct_9fa48("235") ? this.histogram === undefined : stryMutAct_9fa48("234") ? false : stryMutAct_9fa48("233") ? true : (stryCov_9fa48("233", "234", "235"), this.histogram !== undefined)) if (stryMutAct_9fa48("236")) {
        ;
      } else {
        stryCov_9fa48("236");
        this.readHistogram(region, scratch, this.histogram);
      }
    }
  }

  /**
   * The sequence lock's reading side: the cells are kept only if the same even sequence number was read before and
   * after copying them, so no record was in progress meanwhile. The second read is a compare-exchange that writes
   * nothing new: on arm64 its store-release keeps the copy's loads before it (on x64 every locked instruction
   * does). A slot written during every attempt is folded at a later flush.
   */
  private readHistogram(region: Region, scratch: Float64Array, histogram: LocalHistogram): void {
    if (stryMutAct_9fa48("237")) {
      {}
    } else {
      stryCov_9fa48("237");
      const {
        int32,
        numbers,
        layout
      } = region;
      for (let attempt = 0; stryMutAct_9fa48("240") ? attempt >= READ_ATTEMPTS : stryMutAct_9fa48("239") ? attempt <= READ_ATTEMPTS : stryMutAct_9fa48("238") ? false : (stryCov_9fa48("238", "239", "240"), attempt < READ_ATTEMPTS); stryMutAct_9fa48("241") ? attempt-- : (stryCov_9fa48("241"), attempt++)) {
        if (stryMutAct_9fa48("242")) {
          {}
        } else {
          stryCov_9fa48("242");
          const before = Atomics.load(int32, this.seqAt);
          if (stryMutAct_9fa48("245") ? before !== this.seq : stryMutAct_9fa48("244") ? false : stryMutAct_9fa48("243") ? true : (stryCov_9fa48("243", "244", "245"), before === this.seq)) return;
          if (stryMutAct_9fa48("248") ? (before & 1) !== 1 : stryMutAct_9fa48("247") ? false : stryMutAct_9fa48("246") ? true : (stryCov_9fa48("246", "247", "248"), (before & 1) === 1)) continue;
          scratch.set(numbers.subarray(stryMutAct_9fa48("250") ? this.at - H_COUNT : (stryCov_9fa48("250"), this.at + H_COUNT), stryMutAct_9fa48("251") ? this.at - layout.slotCells : (stryCov_9fa48("251"), this.at + layout.slotCells)));
          if (stryMutAct_9fa48("254") ? Atomics.compareExchange(int32, this.seqAt, before, before) === before : stryMutAct_9fa48("253") ? false : stryMutAct_9fa48("252") ? true : (stryCov_9fa48("252", "253", "254"), Atomics.compareExchange(int32, this.seqAt, before, before) !== before)) continue;
          foldHistogram(histogram, scratch, this.taken, stryMutAct_9fa48("256") ? layout.explicitAt + H_COUNT : (stryCov_9fa48("256"), layout.explicitAt - H_COUNT));
          if (stryMutAct_9fa48("257")) {
            ;
          } else {
            stryCov_9fa48("257");
            this.taken.set(scratch);
          }
          this.seq = before;
          return;
        }
      }
    }
  }
}