// @ts-nocheck
// Which worker writes into which place of a link. Every place has one writer at a time, so that a record is plain
// additions to numbers no other thread writes. A worker takes a free place, or one whose worker closed or is gone,
// and goes on adding to the numbers it holds: they are cumulative, and the main thread reads only what they gained.
//
// A gone worker is told from a live one without a message: while it owns a place, a worker keeps ARMED
// Atomics.waitAsync waiters pending on the place's beacon word. V8 drops the waiters of a thread that ends, however
// it ends (terminate(), an uncaught exception, process.exit()), so Atomics.notify on the beacon wakes 1 for a live
// owner and 0 for a gone one. A prober that wakes one counts it in `wakes`; the owner arms a new waiter when its
// event loop next runs, then takes the wake off the count. So a live owner wakes 0 only when ARMED probes came
// while its event loop was busy, and then `wakes` says so: a place is judged gone only when it wakes 0 with fewer
// than ARMED wakes counted. Probers take a lock, so that the count is never read half-way through another's probe.
// A pending waitAsync does not keep a worker's event loop alive.

/** Place states. */function stryNS_9fa48() {
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
const FREE = 0;
/** Being taken: its new owner is arming its beacon, and no prober may judge it. */
const CLAIMING = 1;
const OWNED = 2;
/** Closed by its owner: the next worker takes it as it is. */
const RELEASED = 3;

/** Waiters an owner keeps on its beacon. */
const ARMED = 4;
const LOCK = 0;
const stateAt = stryMutAct_9fa48("67") ? () => undefined : (stryCov_9fa48("67"), (() => {
  const stateAt = (place: number): number => stryMutAct_9fa48("68") ? 1 - 3 * place : (stryCov_9fa48("68"), 1 + (stryMutAct_9fa48("69") ? 3 / place : (stryCov_9fa48("69"), 3 * place)));
  return stateAt;
})());
const beaconAt = stryMutAct_9fa48("70") ? () => undefined : (stryCov_9fa48("70"), (() => {
  const beaconAt = (place: number): number => stryMutAct_9fa48("71") ? 2 - 3 * place : (stryCov_9fa48("71"), 2 + (stryMutAct_9fa48("72") ? 3 / place : (stryCov_9fa48("72"), 3 * place)));
  return beaconAt;
})());
const wakesAt = stryMutAct_9fa48("73") ? () => undefined : (stryCov_9fa48("73"), (() => {
  const wakesAt = (place: number): number => stryMutAct_9fa48("74") ? 3 - 3 * place : (stryCov_9fa48("74"), 3 + (stryMutAct_9fa48("75") ? 3 / place : (stryCov_9fa48("75"), 3 * place)));
  return wakesAt;
})());

/** Int32 words of a link's control buffer for `places` places. */
export const CONTROL_WORDS = stryMutAct_9fa48("76") ? () => undefined : (stryCov_9fa48("76"), (() => {
  const CONTROL_WORDS = (places: number): number => stryMutAct_9fa48("77") ? 1 - 3 * places : (stryCov_9fa48("77"), 1 + (stryMutAct_9fa48("78") ? 3 / places : (stryCov_9fa48("78"), 3 * places)));
  return CONTROL_WORDS;
})());

/** How long a worker waits for another prober's lock before it gives up looking for a gone worker's place. */
const LOCK_WAIT_MILLIS = 200;
/**
 * How long a worker looks for a place when none is free: a pool (piscina) starts a new worker as soon as it has
 * called terminate() on another, whose thread takes a few milliseconds more to end and drop its waiter.
 */
const CLAIM_WAIT_MILLIS = 1000;
const RETRY_MILLIS = 10;
type WaitAsync = (array: Int32Array, index: number, value: number) => {
  async: false;
  value: string;
} | {
  async: true;
  value: Promise<string>;
};
// ES2024, in Node since 16: the workspace's lib (ES2022) does not declare it.
const waitAsync = (Atomics as unknown as {
  waitAsync: WaitAsync;
}).waitAsync;

/** A place this worker owns. */
export interface Claim {
  readonly place: number;
  /** Gives the place up: the next worker that connects may take it, with what it holds. */
  release(): void;
}

/**
 * Takes a place of the link: a free one, one released, or one whose worker is gone, looking again for a while when
 * none is; undefined when none became one.
 */
export function claimPlace(control: Int32Array, places: number): Claim | undefined {
  if (stryMutAct_9fa48("79")) {
    {}
  } else {
    stryCov_9fa48("79");
    const deadline = stryMutAct_9fa48("80") ? Date.now() - CLAIM_WAIT_MILLIS : (stryCov_9fa48("80"), Date.now() + CLAIM_WAIT_MILLIS);
    if (stryMutAct_9fa48("81")) {
      for (; false;) {
        const place = takePlace(control, places);
        if (place !== undefined) return own(control, place);
        if (Date.now() > deadline) return undefined;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_MILLIS);
      }
    } else {
      stryCov_9fa48("81");
      for (;;) {
        if (stryMutAct_9fa48("82")) {
          {}
        } else {
          stryCov_9fa48("82");
          const place = takePlace(control, places);
          if (stryMutAct_9fa48("85") ? place === undefined : stryMutAct_9fa48("84") ? false : stryMutAct_9fa48("83") ? true : (stryCov_9fa48("83", "84", "85"), place !== undefined)) return own(control, place);
          if (stryMutAct_9fa48("89") ? Date.now() <= deadline : stryMutAct_9fa48("88") ? Date.now() >= deadline : stryMutAct_9fa48("87") ? false : stryMutAct_9fa48("86") ? true : (stryCov_9fa48("86", "87", "88", "89"), Date.now() > deadline)) return undefined;
          if (stryMutAct_9fa48("90")) {
            ;
          } else {
            stryCov_9fa48("90");
            Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_MILLIS);
          }
        }
      }
    }
  }
}
function takePlace(control: Int32Array, places: number): number | undefined {
  if (stryMutAct_9fa48("91")) {
    {}
  } else {
    stryCov_9fa48("91");
    for (const from of stryMutAct_9fa48("92") ? [] : (stryCov_9fa48("92"), [FREE, RELEASED])) {
      if (stryMutAct_9fa48("93")) {
        {}
      } else {
        stryCov_9fa48("93");
        for (let place = 0; stryMutAct_9fa48("96") ? place >= places : stryMutAct_9fa48("95") ? place <= places : stryMutAct_9fa48("94") ? false : (stryCov_9fa48("94", "95", "96"), place < places); stryMutAct_9fa48("97") ? place-- : (stryCov_9fa48("97"), place++)) {
          if (stryMutAct_9fa48("98")) {
            {}
          } else {
            stryCov_9fa48("98");
            if (stryMutAct_9fa48("101") ? Atomics.compareExchange(control, stateAt(place), from, CLAIMING) !== from : stryMutAct_9fa48("100") ? false : stryMutAct_9fa48("99") ? true : (stryCov_9fa48("99", "100", "101"), Atomics.compareExchange(control, stateAt(place), from, CLAIMING) === from)) return place;
          }
        }
      }
    }
    return findGone(control, places);
  }
}

/** A place whose owner is gone, taken (CLAIMING) under the probers' lock. */
function findGone(control: Int32Array, places: number): number | undefined {
  if (stryMutAct_9fa48("102")) {
    {}
  } else {
    stryCov_9fa48("102");
    if (stryMutAct_9fa48("105") ? false : stryMutAct_9fa48("104") ? true : stryMutAct_9fa48("103") ? lock(control) : (stryCov_9fa48("103", "104", "105"), !lock(control))) return undefined;
    try {
      if (stryMutAct_9fa48("106")) {
        {}
      } else {
        stryCov_9fa48("106");
        for (let place = 0; stryMutAct_9fa48("109") ? place >= places : stryMutAct_9fa48("108") ? place <= places : stryMutAct_9fa48("107") ? false : (stryCov_9fa48("107", "108", "109"), place < places); stryMutAct_9fa48("110") ? place-- : (stryCov_9fa48("110"), place++)) {
          if (stryMutAct_9fa48("111")) {
            {}
          } else {
            stryCov_9fa48("111");
            if (stryMutAct_9fa48("114") ? Atomics.load(control, stateAt(place)) === OWNED : stryMutAct_9fa48("113") ? false : stryMutAct_9fa48("112") ? true : (stryCov_9fa48("112", "113", "114"), Atomics.load(control, stateAt(place)) !== OWNED)) continue;
            if (stryMutAct_9fa48("117") ? Atomics.notify(control, beaconAt(place), 1) !== 1 : stryMutAct_9fa48("116") ? false : stryMutAct_9fa48("115") ? true : (stryCov_9fa48("115", "116", "117"), Atomics.notify(control, beaconAt(place), 1) === 1)) {
              if (stryMutAct_9fa48("118")) {
                {}
              } else {
                stryCov_9fa48("118");
                if (stryMutAct_9fa48("119")) {
                  ;
                } else {
                  stryCov_9fa48("119");
                  Atomics.add(control, wakesAt(place), 1);
                }
                continue;
              }
            }
            // Every waiter taken by probes its owner has not answered yet: alive, and busy.
            if (stryMutAct_9fa48("123") ? Atomics.load(control, wakesAt(place)) < ARMED : stryMutAct_9fa48("122") ? Atomics.load(control, wakesAt(place)) > ARMED : stryMutAct_9fa48("121") ? false : stryMutAct_9fa48("120") ? true : (stryCov_9fa48("120", "121", "122", "123"), Atomics.load(control, wakesAt(place)) >= ARMED)) continue;
            if (stryMutAct_9fa48("126") ? Atomics.compareExchange(control, stateAt(place), OWNED, CLAIMING) !== OWNED : stryMutAct_9fa48("125") ? false : stryMutAct_9fa48("124") ? true : (stryCov_9fa48("124", "125", "126"), Atomics.compareExchange(control, stateAt(place), OWNED, CLAIMING) === OWNED)) return place;
          }
        }
        return undefined;
      }
    } finally {
      if (stryMutAct_9fa48("127")) {
        {}
      } else {
        stryCov_9fa48("127");
        if (stryMutAct_9fa48("128")) {
          ;
        } else {
          stryCov_9fa48("128");
          Atomics.store(control, LOCK, 0);
        }
        if (stryMutAct_9fa48("129")) {
          ;
        } else {
          stryCov_9fa48("129");
          Atomics.notify(control, LOCK, 1);
        }
      }
    }
  }
}
function lock(control: Int32Array): boolean {
  if (stryMutAct_9fa48("130")) {
    {}
  } else {
    stryCov_9fa48("130");
    const deadline = stryMutAct_9fa48("131") ? Date.now() - LOCK_WAIT_MILLIS : (stryCov_9fa48("131"), Date.now() + LOCK_WAIT_MILLIS);
    while (stryMutAct_9fa48("133") ? Atomics.compareExchange(control, LOCK, 0, 1) === 0 : stryMutAct_9fa48("132") ? false : (stryCov_9fa48("132", "133"), Atomics.compareExchange(control, LOCK, 0, 1) !== 0)) {
      if (stryMutAct_9fa48("134")) {
        {}
      } else {
        stryCov_9fa48("134");
        if (stryMutAct_9fa48("138") ? Date.now() <= deadline : stryMutAct_9fa48("137") ? Date.now() >= deadline : stryMutAct_9fa48("136") ? false : stryMutAct_9fa48("135") ? true : (stryCov_9fa48("135", "136", "137", "138"), Date.now() > deadline)) return stryMutAct_9fa48("139") ? true : (stryCov_9fa48("139"), false);
        if (stryMutAct_9fa48("140")) {
          ;
        } else {
          stryCov_9fa48("140");
          Atomics.wait(control, LOCK, 1, 5);
        }
      }
    }
    return stryMutAct_9fa48("141") ? false : (stryCov_9fa48("141"), true);
  }
}

/** Arms the beacon of a place in CLAIMING, then owns it. */
function own(control: Int32Array, place: number): Claim {
  if (stryMutAct_9fa48("142")) {
    {}
  } else {
    stryCov_9fa48("142");
    let owned = stryMutAct_9fa48("143") ? false : (stryCov_9fa48("143"), true);
    const arm = (): void => {
      if (stryMutAct_9fa48("144")) {
        {}
      } else {
        stryCov_9fa48("144");
        const waiting = waitAsync(control, beaconAt(place), 0);
        if (stryMutAct_9fa48("146") ? false : stryMutAct_9fa48("145") ? true : (stryCov_9fa48("145", "146"), waiting.async)) void waiting.value.then(answer);
      }
    };
    // Armed again before the wake is taken off the count, so that no prober finds this owner unarmed and uncounted.
    const answer = (): void => {
      if (stryMutAct_9fa48("147")) {
        {}
      } else {
        stryCov_9fa48("147");
        if (stryMutAct_9fa48("150") ? false : stryMutAct_9fa48("149") ? true : stryMutAct_9fa48("148") ? owned : (stryCov_9fa48("148", "149", "150"), !owned)) return;
        if (stryMutAct_9fa48("151")) {
          ;
        } else {
          stryCov_9fa48("151");
          arm();
        }
        if (stryMutAct_9fa48("152")) {
          ;
        } else {
          stryCov_9fa48("152");
          Atomics.sub(control, wakesAt(place), 1);
        }
      }
    };
    if (stryMutAct_9fa48("153")) {
      ;
    } else {
      stryCov_9fa48("153");
      Atomics.store(control, wakesAt(place), 0);
    }
    for (let i = 0; stryMutAct_9fa48("156") ? i >= ARMED : stryMutAct_9fa48("155") ? i <= ARMED : stryMutAct_9fa48("154") ? false : (stryCov_9fa48("154", "155", "156"), i < ARMED); stryMutAct_9fa48("157") ? i-- : (stryCov_9fa48("157"), i++)) if (stryMutAct_9fa48("158")) {
      ;
    } else {
      stryCov_9fa48("158");
      arm();
    }
    if (stryMutAct_9fa48("159")) {
      ;
    } else {
      stryCov_9fa48("159");
      Atomics.store(control, stateAt(place), OWNED);
    }
    return stryMutAct_9fa48("160") ? {} : (stryCov_9fa48("160"), {
      place,
      release() {
        if (stryMutAct_9fa48("161")) {
          {}
        } else {
          stryCov_9fa48("161");
          if (stryMutAct_9fa48("164") ? false : stryMutAct_9fa48("163") ? true : stryMutAct_9fa48("162") ? owned : (stryCov_9fa48("162", "163", "164"), !owned)) return;
          owned = stryMutAct_9fa48("165") ? true : (stryCov_9fa48("165"), false);
          // Wakes this owner's own waiters, which then stop, so that none answers for the next owner.
          if (stryMutAct_9fa48("166")) {
            ;
          } else {
            stryCov_9fa48("166");
            Atomics.notify(control, beaconAt(place), ARMED);
          }
          if (stryMutAct_9fa48("167")) {
            ;
          } else {
            stryCov_9fa48("167");
            Atomics.store(control, stateAt(place), RELEASED);
          }
        }
      }
    });
  }
}