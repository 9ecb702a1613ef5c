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
import type { FamilyRegistry } from '../registry/family-registry.js';
import type { WorkerLink, WorkerLinkOptions } from './link-types.js';
import { PlaceReader } from './place-reader.js';
import { createLink, disabledLink, layoutOf, workerLinkOptions } from './worker-link.js';

/**
 * The links one stats instance made and the readers of their places: every flush of the stats (its timer, every
 * collection, `flush()`, `shutdown()`) and every collection of its histograms reads them first. The main thread
 * keeps every place until the stats shut down, so a worker that ended still counts at the next flush.
 */
export class WorkerLinks {
  private readonly readers: PlaceReader[] = stryMutAct_9fa48("558") ? ["Stryker was here"] : (stryCov_9fa48("558"), []);
  private closed = stryMutAct_9fa48("559") ? true : (stryCov_9fa48("559"), false);
  constructor(private readonly families: readonly [FamilyRegistry, FamilyRegistry], /** The explicit boundaries of the stats' histograms, or none when they keep no histogram. */
  private readonly boundaries: readonly number[] | undefined) {}

  /**
   * A new link with the places `options` asks for. After shutdown, a link that records nothing.
   *
   * @throws TypeError when an option is invalid.
   */
  create(options: WorkerLinkOptions | undefined): WorkerLink {
    if (stryMutAct_9fa48("560")) {
      {}
    } else {
      stryCov_9fa48("560");
      const {
        workers,
        maxScopes
      } = workerLinkOptions(options);
      if (stryMutAct_9fa48("562") ? false : stryMutAct_9fa48("561") ? true : (stryCov_9fa48("561", "562"), this.closed)) return disabledLink();
      const link = createLink(workers, maxScopes, this.boundaries);
      const layout = layoutOf(maxScopes, this.boundaries);
      for (const buffer of link.places) {
        if (stryMutAct_9fa48("563")) {
          {}
        } else {
          stryCov_9fa48("563");
          const region = stryMutAct_9fa48("564") ? {} : (stryCov_9fa48("564"), {
            layout,
            int32: new Int32Array(buffer),
            numbers: new Float64Array(buffer),
            bytes: new Uint8Array(buffer)
          });
          if (stryMutAct_9fa48("565")) {
            ;
          } else {
            stryCov_9fa48("565");
            this.readers.push(new PlaceReader(region, this.families));
          }
        }
      }
      return link;
    }
  }

  /** Folds what the workers recorded since the last read into the families' series. */
  read(): void {
    if (stryMutAct_9fa48("566")) {
      {}
    } else {
      stryCov_9fa48("566");
      for (const reader of this.readers) if (stryMutAct_9fa48("567")) {
        ;
      } else {
        stryCov_9fa48("567");
        reader.read();
      }
    }
  }

  /** Reads one last time; the places are let go (workers still recording write where no one reads). */
  close(): void {
    if (stryMutAct_9fa48("568")) {
      {}
    } else {
      stryCov_9fa48("568");
      if (stryMutAct_9fa48("570") ? false : stryMutAct_9fa48("569") ? true : (stryCov_9fa48("569", "570"), this.closed)) return;
      if (stryMutAct_9fa48("571")) {
        ;
      } else {
        stryCov_9fa48("571");
        this.read();
      }
      this.closed = stryMutAct_9fa48("572") ? false : (stryCov_9fa48("572"), true);
      this.readers.length = 0;
    }
  }
}