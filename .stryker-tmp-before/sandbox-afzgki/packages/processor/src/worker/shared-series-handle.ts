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
import { BucketIndex } from '../histogram/bucket-layout.js';
import type { ExplicitBuckets } from '../histogram/explicit-buckets.js';
import type { ResolvedLabels } from '../labels.js';
import { isAmount, MAX_PENDING } from '../record/amount.js';
import { ScopeHandle, type ScopeLookup } from '../record/scope-handle.js';
import type { Run } from '../run.js';
import { BYTES, COUNT, H_COUNT, H_EXPONENTIAL, H_MAX, H_MIN, H_SUM, H_ZERO, MILLIS } from './region-layout.js';

/** What a worker's series handle asks of the family that owns it. */
export interface SharedOwner extends ScopeLookup {
  countInvalid(): void;
  startRun(): Run;
}

/**
 * The handle of one series in a worker thread: its numbers are cells of the place's shared memory, which only this
 * thread writes and which only grow (the main thread reads them at its flushes and keeps what it already took).
 * Recording adds to them in place: no allocation, no Map lookup, no clock read, no message.
 *
 * Two rules make a record safe against the main thread's reads and against `terminate()`:
 *
 * - The record's stores come after everything that calls a function or loops (the checks, the bucket indexes),
 *   and between its first store and its last there are only plain stores to typed arrays: no call, no loop, not
 *   even an Atomics call. V8 stops a terminated thread only at an interrupt check, and those sit at calls and loop
 *   back edges (an Atomics call is one: a worker terminated around Atomics.store was seen to stop there), so a
 *   record is written whole or not at all.
 * - The histogram cells are written inside a sequence lock: the slot's sequence number is made odd, the cells are
 *   added to, and it is made even. The main thread keeps a histogram read only when it saw the same even number
 *   before and after it, so the count, sum and buckets it folds are those of the same records, and a Float64 torn
 *   by a store in progress is never kept. The counters need no lock: each is folded on its own, so a record whose
 *   count is read at one flush and its bytes at the next still counts once in each.
 *
 * The sequence number's stores are plain (an Atomics.store would be an interrupt check, and costs 8 ns on x64).
 * ECMAScript's memory model gives plain stores no order as seen from another thread; V8 emits them in program
 * order, and x64 makes stores visible in that order, so on x64 the lock is exact. Where stores may become visible
 * out of order (arm64), a read may take part of the record in progress: every cell is cumulative and each read
 * folds only what it gained, so the rest comes with the next read and each record still counts exactly once; only
 * that one collection may show a count one record away from its buckets.
 */
export class SharedSeriesHandle extends ScopeHandle<SharedOwner> {
  constructor(owner: SharedOwner, labels: ResolvedLabels, /** The place's numbers; after `close()`, a private copy that no one reads. */
  public numbers: Float64Array, /** The series' first cell in `numbers`. */
  readonly at: number, /** The place's Int32 words, where the series' sequence number is; private after `close()` too. */
  public seqs: Int32Array, readonly seqAt: number, /** The explicit buckets of the stats' histograms, or none when they keep no histogram. */
  readonly buckets: ExplicitBuckets | undefined, /** The first explicit bucket's cell, from `at`. */
  readonly explicitAt: number) {
    super(owner, labels);
  }

  /** Finds the exponential bucket (its tables read through this object's own fields, as LocalHistogram does). */
  private readonly bucketIndex = new BucketIndex();
  timedIncrement(durationMillis: number, weight = 1): void {
    if (stryMutAct_9fa48("386")) {
      {}
    } else {
      stryCov_9fa48("386");
      if (stryMutAct_9fa48("389") ? isAmount(durationMillis) && isAmount(weight) || this.add(0, durationMillis, weight) : stryMutAct_9fa48("388") ? false : stryMutAct_9fa48("387") ? true : (stryCov_9fa48("387", "388", "389"), (stryMutAct_9fa48("391") ? isAmount(durationMillis) || isAmount(weight) : stryMutAct_9fa48("390") ? true : (stryCov_9fa48("390", "391"), isAmount(durationMillis) && isAmount(weight))) && this.add(0, durationMillis, weight))) return;
      if (stryMutAct_9fa48("392")) {
        ;
      } else {
        stryCov_9fa48("392");
        this.owner.countInvalid();
      }
    }
  }
  timedIncrementBytes(bytes: number, durationMillis: number, weight = 1): void {
    if (stryMutAct_9fa48("393")) {
      {}
    } else {
      stryCov_9fa48("393");
      if (stryMutAct_9fa48("396") ? isAmount(bytes) && isAmount(durationMillis) && isAmount(weight) || this.add(bytes, durationMillis, weight) : stryMutAct_9fa48("395") ? false : stryMutAct_9fa48("394") ? true : (stryCov_9fa48("394", "395", "396"), (stryMutAct_9fa48("398") ? isAmount(bytes) && isAmount(durationMillis) || isAmount(weight) : stryMutAct_9fa48("397") ? true : (stryCov_9fa48("397", "398"), (stryMutAct_9fa48("400") ? isAmount(bytes) || isAmount(durationMillis) : stryMutAct_9fa48("399") ? true : (stryCov_9fa48("399", "400"), isAmount(bytes) && isAmount(durationMillis))) && isAmount(weight))) && this.add(bytes, durationMillis, weight))) return;
      if (stryMutAct_9fa48("401")) {
        ;
      } else {
        stryCov_9fa48("401");
        this.owner.countInvalid();
      }
    }
  }
  startRun(): Run {
    if (stryMutAct_9fa48("402")) {
      {}
    } else {
      stryCov_9fa48("402");
      return this.owner.startRun();
    }
  }

  /** Adds one record of valid amounts; false when a cumulative sum would pass {@link MAX_PENDING}. */
  private add(bytes: number, durationMillis: number, weight: number): boolean {
    if (stryMutAct_9fa48("403")) {
      {}
    } else {
      stryCov_9fa48("403");
      const numbers = this.numbers;
      const at = this.at;
      const totalBytes = stryMutAct_9fa48("404") ? (numbers[at + BYTES] as number) - bytes : (stryCov_9fa48("404"), (numbers[at + BYTES] as number) + bytes);
      const totalMillis = stryMutAct_9fa48("405") ? (numbers[at + MILLIS] as number) - durationMillis * weight : (stryCov_9fa48("405"), (numbers[at + MILLIS] as number) + (stryMutAct_9fa48("406") ? durationMillis / weight : (stryCov_9fa48("406"), durationMillis * weight)));
      if (stryMutAct_9fa48("409") ? totalBytes > MAX_PENDING && totalMillis > MAX_PENDING : stryMutAct_9fa48("408") ? false : stryMutAct_9fa48("407") ? true : (stryCov_9fa48("407", "408", "409"), (stryMutAct_9fa48("412") ? totalBytes <= MAX_PENDING : stryMutAct_9fa48("411") ? totalBytes >= MAX_PENDING : stryMutAct_9fa48("410") ? false : (stryCov_9fa48("410", "411", "412"), totalBytes > MAX_PENDING)) || (stryMutAct_9fa48("415") ? totalMillis <= MAX_PENDING : stryMutAct_9fa48("414") ? totalMillis >= MAX_PENDING : stryMutAct_9fa48("413") ? false : (stryCov_9fa48("413", "414", "415"), totalMillis > MAX_PENDING)))) return stryMutAct_9fa48("416") ? true : (stryCov_9fa48("416"), false);
      // The histogram's cells, found before the first store: offsetOf and indexOf are calls, indexOf loops.
      let bucketCell = stryMutAct_9fa48("417") ? +1 : (stryCov_9fa48("417"), -1);
      let explicitCell = stryMutAct_9fa48("418") ? +1 : (stryCov_9fa48("418"), -1);
      const buckets = this.buckets;
      if (stryMutAct_9fa48("421") ? weight > 0 || buckets !== undefined : stryMutAct_9fa48("420") ? false : stryMutAct_9fa48("419") ? true : (stryCov_9fa48("419", "420", "421"), (stryMutAct_9fa48("424") ? weight <= 0 : stryMutAct_9fa48("423") ? weight >= 0 : stryMutAct_9fa48("422") ? true : (stryCov_9fa48("422", "423", "424"), weight > 0)) && (stryMutAct_9fa48("426") ? buckets === undefined : stryMutAct_9fa48("425") ? true : (stryCov_9fa48("425", "426"), buckets !== undefined)))) {
        if (stryMutAct_9fa48("427")) {
          {}
        } else {
          stryCov_9fa48("427");
          if (stryMutAct_9fa48("430") ? durationMillis !== 0 : stryMutAct_9fa48("429") ? false : stryMutAct_9fa48("428") ? true : (stryCov_9fa48("428", "429", "430"), durationMillis === 0)) {
            if (stryMutAct_9fa48("431")) {
              {}
            } else {
              stryCov_9fa48("431");
              bucketCell = stryMutAct_9fa48("432") ? at - H_ZERO : (stryCov_9fa48("432"), at + H_ZERO);
              explicitCell = stryMutAct_9fa48("433") ? at - this.explicitAt : (stryCov_9fa48("433"), at + this.explicitAt);
            }
          } else {
            if (stryMutAct_9fa48("434")) {
              {}
            } else {
              stryCov_9fa48("434");
              const offset = this.bucketIndex.offsetOf(durationMillis);
              bucketCell = stryMutAct_9fa48("435") ? at + H_EXPONENTIAL - offset : (stryCov_9fa48("435"), (stryMutAct_9fa48("436") ? at - H_EXPONENTIAL : (stryCov_9fa48("436"), at + H_EXPONENTIAL)) + offset);
              explicitCell = stryMutAct_9fa48("437") ? at + this.explicitAt - buckets.indexOf(durationMillis, offset) : (stryCov_9fa48("437"), (stryMutAct_9fa48("438") ? at - this.explicitAt : (stryCov_9fa48("438"), at + this.explicitAt)) + buckets.indexOf(durationMillis, offset));
            }
          }
        }
      }
      // Plain stores only from here: no call and no loop.
      numbers[stryMutAct_9fa48("439") ? at - COUNT : (stryCov_9fa48("439"), at + COUNT)] = stryMutAct_9fa48("440") ? (numbers[at + COUNT] as number) - 1 : (stryCov_9fa48("440"), (numbers[at + COUNT] as number) + 1);
      numbers[stryMutAct_9fa48("441") ? at - BYTES : (stryCov_9fa48("441"), at + BYTES)] = totalBytes;
      numbers[stryMutAct_9fa48("442") ? at - MILLIS : (stryCov_9fa48("442"), at + MILLIS)] = totalMillis;
      if (stryMutAct_9fa48("446") ? bucketCell < 0 : stryMutAct_9fa48("445") ? bucketCell > 0 : stryMutAct_9fa48("444") ? false : stryMutAct_9fa48("443") ? true : (stryCov_9fa48("443", "444", "445", "446"), bucketCell >= 0)) {
        if (stryMutAct_9fa48("447")) {
          {}
        } else {
          stryCov_9fa48("447");
          const seqs = this.seqs;
          const seqAt = this.seqAt;
          const seq = seqs[seqAt] as number;
          seqs[seqAt] = (stryMutAct_9fa48("448") ? seq - 1 : (stryCov_9fa48("448"), seq + 1)) | 0;
          numbers[stryMutAct_9fa48("449") ? at - H_COUNT : (stryCov_9fa48("449"), at + H_COUNT)] = stryMutAct_9fa48("450") ? (numbers[at + H_COUNT] as number) - weight : (stryCov_9fa48("450"), (numbers[at + H_COUNT] as number) + weight);
          numbers[stryMutAct_9fa48("451") ? at - H_SUM : (stryCov_9fa48("451"), at + H_SUM)] = stryMutAct_9fa48("452") ? (numbers[at + H_SUM] as number) - durationMillis * weight : (stryCov_9fa48("452"), (numbers[at + H_SUM] as number) + (stryMutAct_9fa48("453") ? durationMillis / weight : (stryCov_9fa48("453"), durationMillis * weight)));
          if (stryMutAct_9fa48("457") ? durationMillis >= (numbers[at + H_MIN] as number) : stryMutAct_9fa48("456") ? durationMillis <= (numbers[at + H_MIN] as number) : stryMutAct_9fa48("455") ? false : stryMutAct_9fa48("454") ? true : (stryCov_9fa48("454", "455", "456", "457"), durationMillis < (numbers[at + H_MIN] as number))) numbers[stryMutAct_9fa48("458") ? at - H_MIN : (stryCov_9fa48("458"), at + H_MIN)] = durationMillis;
          if (stryMutAct_9fa48("462") ? durationMillis <= (numbers[at + H_MAX] as number) : stryMutAct_9fa48("461") ? durationMillis >= (numbers[at + H_MAX] as number) : stryMutAct_9fa48("460") ? false : stryMutAct_9fa48("459") ? true : (stryCov_9fa48("459", "460", "461", "462"), durationMillis > (numbers[at + H_MAX] as number))) numbers[stryMutAct_9fa48("463") ? at - H_MAX : (stryCov_9fa48("463"), at + H_MAX)] = durationMillis;
          numbers[bucketCell] = stryMutAct_9fa48("464") ? (numbers[bucketCell] as number) - weight : (stryCov_9fa48("464"), (numbers[bucketCell] as number) + weight);
          numbers[explicitCell] = stryMutAct_9fa48("465") ? (numbers[explicitCell] as number) - weight : (stryCov_9fa48("465"), (numbers[explicitCell] as number) + weight);
          seqs[seqAt] = (stryMutAct_9fa48("466") ? seq - 2 : (stryCov_9fa48("466"), seq + 2)) | 0;
        }
      }
      return stryMutAct_9fa48("467") ? false : (stryCov_9fa48("467"), true);
    }
  }
}