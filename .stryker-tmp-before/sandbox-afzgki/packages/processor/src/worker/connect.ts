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
import { Diagnostics } from '../diagnostics/diagnostics.js';
import { notAccepted } from '../diagnostics/error-messages.js';
import { noop, noopStats } from '../doubles/noop-stats.js';
import { ExplicitBuckets } from '../histogram/explicit-buckets.js';
import { FAMILIES } from '../naming/naming-types.js';
import type { Stats } from '../stats.js';
import type { WorkerLink } from './link-types.js';
import { claimPlace } from './place-claim.js';
import { type Region, SharedFamily } from './shared-family.js';
import { layoutOf, requireLink } from './worker-link.js';

/** Backup and restore stats of a worker thread, recording into the shared memory of a {@link WorkerLink}. */
export interface WorkerBackupStats {
  /** Measurements of backups: `scope()`, `timedIncrement`, `timedIncrementBytes`, as on the main thread. */
  readonly backup: Stats;
  /** Measurements of restores. */
  readonly restore: Stats;
  /**
   * Gives the worker's place back, so that another worker may take it (what was recorded stays, and the main
   * thread reads it). Records made afterwards go nowhere. Called by itself when the worker's thread exits
   * (its end, `process.exit()`, an uncaught exception); calling it again does nothing.
   */
  close(): void;
}

/**
 * Connects a worker thread to the stats that made `link` (`stats.workerLink()` on the main thread): records go into
 * shared memory that the main thread reads at its flushes (its timer, every collection, `flush()`, `shutdown()`),
 * with no message per record or per scope. The handles record as the main thread's do, at a few nanoseconds, and
 * the stream meters of `backupstats` take them. `startRun()` records nothing in a worker (runs are the main
 * thread's).
 *
 * @throws TypeError when `link` is not a link, or when all its places are taken by live workers.
 */
export function connectBackupStats(link: WorkerLink): WorkerBackupStats {
  if (stryMutAct_9fa48("0")) {
    {}
  } else {
    stryCov_9fa48("0");
    if (stryMutAct_9fa48("1")) {
      ;
    } else {
      stryCov_9fa48("1");
      requireLink(link);
    }
    if (stryMutAct_9fa48("4") ? link.control !== undefined : stryMutAct_9fa48("3") ? false : stryMutAct_9fa48("2") ? true : (stryCov_9fa48("2", "3", "4"), link.control === undefined)) return Object.freeze(stryMutAct_9fa48("5") ? {} : (stryCov_9fa48("5"), {
      backup: noopStats,
      restore: noopStats,
      close: noop
    }));
    const claim = claimPlace(new Int32Array(link.control), link.places.length);
    if (stryMutAct_9fa48("8") ? claim !== undefined : stryMutAct_9fa48("7") ? false : stryMutAct_9fa48("6") ? true : (stryCov_9fa48("6", "7", "8"), claim === undefined)) {
      if (stryMutAct_9fa48("9")) {
        {}
      } else {
        stryCov_9fa48("9");
        throw notAccepted(stryMutAct_9fa48("10") ? "" : (stryCov_9fa48("10"), 'connectBackupStats link'), stryMutAct_9fa48("11") ? `` : (stryCov_9fa48("11"), `a link whose ${link.places.length} place(s) are all taken by live workers`), stryMutAct_9fa48("12") ? "" : (stryCov_9fa48("12"), 'a link with a free place: stats.workerLink({ workers: N }) for N workers recording at once, or a link per worker'));
      }
    }
    const buffer = link.places[claim.place] as SharedArrayBuffer;
    const region: Region = stryMutAct_9fa48("13") ? {} : (stryCov_9fa48("13"), {
      layout: layoutOf(link.maxScopes, link.histogramBoundaries),
      int32: new Int32Array(buffer),
      numbers: new Float64Array(buffer),
      bytes: new Uint8Array(buffer)
    });
    const boundaries = link.histogramBoundaries;
    const buckets = (stryMutAct_9fa48("16") ? boundaries !== undefined : stryMutAct_9fa48("15") ? false : stryMutAct_9fa48("14") ? true : (stryCov_9fa48("14", "15", "16"), boundaries === undefined)) ? undefined : new ExplicitBuckets(boundaries);
    const diagnostics = new Diagnostics();
    const [backup, restore] = FAMILIES.map((family, i) => new SharedFamily(region, i, family, diagnostics, buckets)) as [SharedFamily, SharedFamily];
    let closed = stryMutAct_9fa48("17") ? true : (stryCov_9fa48("17"), false);
    const close = (): void => {
      if (stryMutAct_9fa48("18")) {
        {}
      } else {
        stryCov_9fa48("18");
        if (stryMutAct_9fa48("20") ? false : stryMutAct_9fa48("19") ? true : (stryCov_9fa48("19", "20"), closed)) return;
        closed = stryMutAct_9fa48("21") ? false : (stryCov_9fa48("21"), true);
        process.off(stryMutAct_9fa48("23") ? "" : (stryCov_9fa48("23"), 'exit'), close);
        if (stryMutAct_9fa48("24")) {
          ;
        } else {
          stryCov_9fa48("24");
          backup.detach();
        }
        if (stryMutAct_9fa48("25")) {
          ;
        } else {
          stryCov_9fa48("25");
          restore.detach();
        }
        if (stryMutAct_9fa48("26")) {
          ;
        } else {
          stryCov_9fa48("26");
          claim.release();
        }
      }
    };
    process.once(stryMutAct_9fa48("28") ? "" : (stryCov_9fa48("28"), 'exit'), close);
    return Object.freeze(stryMutAct_9fa48("29") ? {} : (stryCov_9fa48("29"), {
      backup: backup.root,
      restore: restore.root,
      close
    }));
  }
}