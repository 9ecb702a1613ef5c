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
import { optionsOf } from '../diagnostics/arguments.js';
import { describeValue, notAccepted, showValue } from '../diagnostics/error-messages.js';
import { type IntegerRule, integerText, isIntegerIn } from '../diagnostics/integer-rule.js';
import type { WorkerLink, WorkerLinkOptions } from './link-types.js';
import { CONTROL_WORDS } from './place-claim.js';
import { type RegionLayout, regionLayout } from './region-layout.js';
const WORKERS: IntegerRule = stryMutAct_9fa48("468") ? {} : (stryCov_9fa48("468"), {
  min: 1,
  max: 1024,
  note: stryMutAct_9fa48("469") ? "" : (stryCov_9fa48("469"), 'worker threads recording through the link at once')
});
const MAX_SCOPES: IntegerRule = stryMutAct_9fa48("470") ? {} : (stryCov_9fa48("470"), {
  min: 2,
  max: 65_536,
  note: stryMutAct_9fa48("471") ? "" : (stryCov_9fa48("471"), 'per worker and family, the overflow series included')
});
const DEFAULT_MAX_SCOPES = 256;

/** The options of `workerLink()` checked, with their defaults. */
export function workerLinkOptions(options: WorkerLinkOptions | undefined): {
  workers: number;
  maxScopes: number;
} {
  if (stryMutAct_9fa48("472")) {
    {}
  } else {
    stryCov_9fa48("472");
    const given = optionsOf(stryMutAct_9fa48("473") ? "" : (stryCov_9fa48("473"), 'workerLink'), options, stryMutAct_9fa48("474") ? "" : (stryCov_9fa48("474"), '{ workers: 4 }'));
    const {
      workers = 1,
      maxScopes = DEFAULT_MAX_SCOPES
    } = given;
    if (stryMutAct_9fa48("477") ? false : stryMutAct_9fa48("476") ? true : stryMutAct_9fa48("475") ? isIntegerIn(workers, WORKERS) : (stryCov_9fa48("475", "476", "477"), !isIntegerIn(workers, WORKERS))) throw notAccepted(stryMutAct_9fa48("478") ? "" : (stryCov_9fa48("478"), 'workerLink option workers'), showValue(workers), integerText(WORKERS));
    if (stryMutAct_9fa48("481") ? false : stryMutAct_9fa48("480") ? true : stryMutAct_9fa48("479") ? isIntegerIn(maxScopes, MAX_SCOPES) : (stryCov_9fa48("479", "480", "481"), !isIntegerIn(maxScopes, MAX_SCOPES))) {
      if (stryMutAct_9fa48("482")) {
        {}
      } else {
        stryCov_9fa48("482");
        throw notAccepted(stryMutAct_9fa48("483") ? "" : (stryCov_9fa48("483"), 'workerLink option maxScopes'), showValue(maxScopes), integerText(MAX_SCOPES));
      }
    }
    return stryMutAct_9fa48("484") ? {} : (stryCov_9fa48("484"), {
      workers,
      maxScopes
    });
  }
}

/**
 * A new link with `workers` places. The memory is zeroed, and Node takes pages from the system only when they are
 * first written: a place costs what its worker records into, not its whole size.
 */
export function createLink(workers: number, maxScopes: number, boundaries: readonly number[] | undefined): WorkerLink {
  if (stryMutAct_9fa48("485")) {
    {}
  } else {
    stryCov_9fa48("485");
    const layout = layoutOf(maxScopes, boundaries);
    return stryMutAct_9fa48("486") ? {} : (stryCov_9fa48("486"), {
      backupstatsWorkerLink: 1,
      control: new SharedArrayBuffer(stryMutAct_9fa48("487") ? CONTROL_WORDS(workers) / 4 : (stryCov_9fa48("487"), CONTROL_WORDS(workers) * 4)),
      places: Array.from(stryMutAct_9fa48("488") ? {} : (stryCov_9fa48("488"), {
        length: workers
      }), stryMutAct_9fa48("489") ? () => undefined : (stryCov_9fa48("489"), () => new SharedArrayBuffer(layout.byteLength))),
      maxScopes,
      histogramBoundaries: (stryMutAct_9fa48("492") ? boundaries !== undefined : stryMutAct_9fa48("491") ? false : stryMutAct_9fa48("490") ? true : (stryCov_9fa48("490", "491", "492"), boundaries === undefined)) ? undefined : stryMutAct_9fa48("493") ? [] : (stryCov_9fa48("493"), [...boundaries])
    });
  }
}

/** The link of stats that record nothing: a worker connected through it records nothing either. */
export function disabledLink(): WorkerLink {
  if (stryMutAct_9fa48("494")) {
    {}
  } else {
    stryCov_9fa48("494");
    return stryMutAct_9fa48("495") ? {} : (stryCov_9fa48("495"), {
      backupstatsWorkerLink: 1,
      control: undefined,
      places: stryMutAct_9fa48("496") ? ["Stryker was here"] : (stryCov_9fa48("496"), []),
      maxScopes: 2,
      histogramBoundaries: undefined
    });
  }
}

/** The layout of every place of a link. */
export function layoutOf(maxScopes: number, boundaries: readonly number[] | undefined): RegionLayout {
  if (stryMutAct_9fa48("497")) {
    {}
  } else {
    stryCov_9fa48("497");
    return regionLayout(maxScopes, (stryMutAct_9fa48("500") ? boundaries !== undefined : stryMutAct_9fa48("499") ? false : stryMutAct_9fa48("498") ? true : (stryCov_9fa48("498", "499", "500"), boundaries === undefined)) ? undefined : stryMutAct_9fa48("501") ? boundaries.length - 1 : (stryCov_9fa48("501"), boundaries.length + 1));
  }
}

/** Throws unless `value` is a link made by `workerLink()` (as it arrives, cloned, in a worker). */
export function requireLink(value: unknown): asserts value is WorkerLink {
  if (stryMutAct_9fa48("502")) {
    {}
  } else {
    stryCov_9fa48("502");
    const link = value as Partial<WorkerLink> | null | undefined;
    const boundaries = stryMutAct_9fa48("503") ? link.histogramBoundaries : (stryCov_9fa48("503"), link?.histogramBoundaries);
    if (stryMutAct_9fa48("506") ? typeof link === 'object' && link !== null && link.backupstatsWorkerLink === 1 && (link.control === undefined || link.control instanceof SharedArrayBuffer) && Array.isArray(link.places) && link.places.every(place => place instanceof SharedArrayBuffer) && isIntegerIn(link.maxScopes, MAX_SCOPES) && (boundaries === undefined || Array.isArray(boundaries) && boundaries.every(b => typeof b === 'number')) || link.control === undefined || link.places.every(place => place.byteLength === layoutOf(link.maxScopes as number, boundaries).byteLength) : stryMutAct_9fa48("505") ? false : stryMutAct_9fa48("504") ? true : (stryCov_9fa48("504", "505", "506"), (stryMutAct_9fa48("508") ? typeof link === 'object' && link !== null && link.backupstatsWorkerLink === 1 && (link.control === undefined || link.control instanceof SharedArrayBuffer) && Array.isArray(link.places) && link.places.every(place => place instanceof SharedArrayBuffer) && isIntegerIn(link.maxScopes, MAX_SCOPES) || boundaries === undefined || Array.isArray(boundaries) && boundaries.every(b => typeof b === 'number') : stryMutAct_9fa48("507") ? true : (stryCov_9fa48("507", "508"), (stryMutAct_9fa48("510") ? typeof link === 'object' && link !== null && link.backupstatsWorkerLink === 1 && (link.control === undefined || link.control instanceof SharedArrayBuffer) && Array.isArray(link.places) && link.places.every(place => place instanceof SharedArrayBuffer) || isIntegerIn(link.maxScopes, MAX_SCOPES) : stryMutAct_9fa48("509") ? true : (stryCov_9fa48("509", "510"), (stryMutAct_9fa48("512") ? typeof link === 'object' && link !== null && link.backupstatsWorkerLink === 1 && (link.control === undefined || link.control instanceof SharedArrayBuffer) && Array.isArray(link.places) || link.places.every(place => place instanceof SharedArrayBuffer) : stryMutAct_9fa48("511") ? true : (stryCov_9fa48("511", "512"), (stryMutAct_9fa48("514") ? typeof link === 'object' && link !== null && link.backupstatsWorkerLink === 1 && (link.control === undefined || link.control instanceof SharedArrayBuffer) || Array.isArray(link.places) : stryMutAct_9fa48("513") ? true : (stryCov_9fa48("513", "514"), (stryMutAct_9fa48("516") ? typeof link === 'object' && link !== null && link.backupstatsWorkerLink === 1 || link.control === undefined || link.control instanceof SharedArrayBuffer : stryMutAct_9fa48("515") ? true : (stryCov_9fa48("515", "516"), (stryMutAct_9fa48("518") ? typeof link === 'object' && link !== null || link.backupstatsWorkerLink === 1 : stryMutAct_9fa48("517") ? true : (stryCov_9fa48("517", "518"), (stryMutAct_9fa48("520") ? typeof link === 'object' || link !== null : stryMutAct_9fa48("519") ? true : (stryCov_9fa48("519", "520"), (stryMutAct_9fa48("522") ? typeof link !== 'object' : stryMutAct_9fa48("521") ? true : (stryCov_9fa48("521", "522"), typeof link === (stryMutAct_9fa48("523") ? "" : (stryCov_9fa48("523"), 'object')))) && (stryMutAct_9fa48("525") ? link === null : stryMutAct_9fa48("524") ? true : (stryCov_9fa48("524", "525"), link !== null)))) && (stryMutAct_9fa48("527") ? link.backupstatsWorkerLink !== 1 : stryMutAct_9fa48("526") ? true : (stryCov_9fa48("526", "527"), link.backupstatsWorkerLink === 1)))) && (stryMutAct_9fa48("529") ? link.control === undefined && link.control instanceof SharedArrayBuffer : stryMutAct_9fa48("528") ? true : (stryCov_9fa48("528", "529"), (stryMutAct_9fa48("531") ? link.control !== undefined : stryMutAct_9fa48("530") ? false : (stryCov_9fa48("530", "531"), link.control === undefined)) || link.control instanceof SharedArrayBuffer)))) && Array.isArray(link.places))) && (stryMutAct_9fa48("532") ? link.places.some(place => place instanceof SharedArrayBuffer) : (stryCov_9fa48("532"), link.places.every(stryMutAct_9fa48("533") ? () => undefined : (stryCov_9fa48("533"), place => place instanceof SharedArrayBuffer)))))) && isIntegerIn(link.maxScopes, MAX_SCOPES))) && (stryMutAct_9fa48("535") ? boundaries === undefined && Array.isArray(boundaries) && boundaries.every(b => typeof b === 'number') : stryMutAct_9fa48("534") ? true : (stryCov_9fa48("534", "535"), (stryMutAct_9fa48("537") ? boundaries !== undefined : stryMutAct_9fa48("536") ? false : (stryCov_9fa48("536", "537"), boundaries === undefined)) || (stryMutAct_9fa48("539") ? Array.isArray(boundaries) || boundaries.every(b => typeof b === 'number') : stryMutAct_9fa48("538") ? false : (stryCov_9fa48("538", "539"), Array.isArray(boundaries) && (stryMutAct_9fa48("540") ? boundaries.some(b => typeof b === 'number') : (stryCov_9fa48("540"), boundaries.every(stryMutAct_9fa48("541") ? () => undefined : (stryCov_9fa48("541"), b => stryMutAct_9fa48("544") ? typeof b !== 'number' : stryMutAct_9fa48("543") ? false : stryMutAct_9fa48("542") ? true : (stryCov_9fa48("542", "543", "544"), typeof b === (stryMutAct_9fa48("545") ? "" : (stryCov_9fa48("545"), 'number'))))))))))))) && (stryMutAct_9fa48("547") ? link.control === undefined && link.places.every(place => place.byteLength === layoutOf(link.maxScopes as number, boundaries).byteLength) : stryMutAct_9fa48("546") ? true : (stryCov_9fa48("546", "547"), (stryMutAct_9fa48("549") ? link.control !== undefined : stryMutAct_9fa48("548") ? false : (stryCov_9fa48("548", "549"), link.control === undefined)) || (stryMutAct_9fa48("550") ? link.places.some(place => place.byteLength === layoutOf(link.maxScopes as number, boundaries).byteLength) : (stryCov_9fa48("550"), link.places.every(stryMutAct_9fa48("551") ? () => undefined : (stryCov_9fa48("551"), place => stryMutAct_9fa48("554") ? place.byteLength !== layoutOf(link.maxScopes as number, boundaries).byteLength : stryMutAct_9fa48("553") ? false : stryMutAct_9fa48("552") ? true : (stryCov_9fa48("552", "553", "554"), place.byteLength === layoutOf(link.maxScopes as number, boundaries).byteLength))))))))) {
      if (stryMutAct_9fa48("555")) {
        {}
      } else {
        stryCov_9fa48("555");
        return;
      }
    }
    throw notAccepted(stryMutAct_9fa48("556") ? "" : (stryCov_9fa48("556"), 'connectBackupStats link'), describeValue(value), stryMutAct_9fa48("557") ? "" : (stryCov_9fa48("557"), 'the value stats.workerLink() returned on the main thread, passed in workerData or postMessage'));
  }
}