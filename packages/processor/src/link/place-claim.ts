// Which worker writes into which place of a link. Every place has one writer at a time, so that a record is plain
// additions to numbers no other thread writes. A worker takes a free place, or one whose worker closed or is gone,
// and goes on adding to the numbers it holds: they are cumulative, and the main thread reads only what they gained.
//
// A gone worker is told apart from a live one without a message: while it owns a place, a worker keeps ARMED
// Atomics.waitAsync waiters pending on the place's beacon word. V8 drops the waiters of a thread that ends, however
// it ends (terminate(), an uncaught exception, process.exit()), so Atomics.notify on the beacon wakes 1 for a live
// owner and 0 for a gone one. A prober that wakes one counts it in `wakes`; the owner arms a new waiter when its
// event loop next runs, then takes the wake off the count. So a live owner wakes 0 only when ARMED probes came
// while its event loop was busy, and then `wakes` says so: a place is judged gone only when it wakes 0 with fewer
// than ARMED wakes counted. Probers take a lock, so that the count is never read half-way through another's probe.
// A pending waitAsync does not keep a worker's event loop alive.

/** Place states. */
const FREE = 0;
/** Being taken: its new owner is arming its beacon, and no prober may judge it. */
const CLAIMING = 1;
const OWNED = 2;
/** Closed by its owner: the next worker takes it as it is. */
const RELEASED = 3;

/** Waiters an owner keeps on its beacon. */
const ARMED = 4;

const LOCK = 0;
const stateAt = (place: number): number => 1 + 3 * place;
const beaconAt = (place: number): number => 2 + 3 * place;
const wakesAt = (place: number): number => 3 + 3 * place;

/** True once a worker has taken the place (it may have written into it since); never false again. */
export const placeEverTaken = (control: Int32Array, place: number): boolean =>
  // Stryker disable next-line ConditionalExpression: a reader of a place never taken reads zeros and adds nothing
  Atomics.load(control, stateAt(place)) !== FREE;

/** Int32 words of a link's control buffer for `places` places: the lock, three per place, the closed mark. */
export const CONTROL_WORDS = (places: number): number => 2 + 3 * places;
/** The word the main thread sets when the stats that made the link shut down. */
const closedAt = (places: number): number => 1 + 3 * places;

/** Marks the link closed: the stats that made it shut down, and no one reads its places any more. */
export function markClosed(control: Int32Array, places: number): void {
  Atomics.store(control, closedAt(places), 1);
}

/** True once the stats that made the link shut down. */
export function isClosed(control: Int32Array, places: number): boolean {
  return Atomics.load(control, closedAt(places)) === 1;
}

/** How long a worker waits for another prober's lock before it gives up looking for a gone worker's place. */
const LOCK_WAIT_MILLIS = 200;
/**
 * How long a worker looks for a place when none is free: a pool (piscina) starts a new worker as soon as it has
 * called terminate() on another, whose thread takes a few milliseconds more to end and drop its waiter.
 */
const CLAIM_WAIT_MILLIS = 1000;
const RETRY_MILLIS = 10;

type WaitAsync = (
  array: Int32Array,
  index: number,
  value: number,
) => { async: false; value: string } | { async: true; value: Promise<string> };
// ES2024, in Node since 16: the workspace's lib (ES2022) does not declare it.
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

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
  const deadline = Date.now() + CLAIM_WAIT_MILLIS;
  for (;;) {
    const place = takePlace(control, places);
    if (place !== undefined) return own(control, place);
    // Stryker disable next-line EqualityOperator: a worker looks one millisecond less for a place
    if (Date.now() > deadline) return undefined;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_MILLIS);
  }
}

function takePlace(control: Int32Array, places: number): number | undefined {
  for (const from of [FREE, RELEASED]) {
    for (let place = 0; place < places; place++) {
      if (Atomics.compareExchange(control, stateAt(place), from, CLAIMING) === from) return place;
    }
  }
  return findGone(control, places);
}

/** A place whose owner is gone, taken (CLAIMING) under the probers' lock. */
function findGone(control: Int32Array, places: number): number | undefined {
  if (!lock(control)) return undefined;
  try {
    // Stryker disable next-line EqualityOperator: the word past the last place is the closed mark, never OWNED
    for (let place = 0; place < places; place++) {
      // Stryker disable next-line ConditionalExpression: the compare-exchange from OWNED fails in any other state
      if (Atomics.load(control, stateAt(place)) !== OWNED) continue;
      if (Atomics.notify(control, beaconAt(place), 1) === 1) {
        Atomics.add(control, wakesAt(place), 1);
        continue;
      }
      // Every waiter taken by probes its owner has not answered yet: alive, and busy.
      if (Atomics.load(control, wakesAt(place)) >= ARMED) continue;
      // Stryker disable next-line ConditionalExpression: differs only if the place changes between load and exchange
      if (Atomics.compareExchange(control, stateAt(place), OWNED, CLAIMING) === OWNED) return place;
    }
    return undefined;
  } finally {
    Atomics.store(control, LOCK, 0);
    // Stryker disable next-line CallExpression: a waiting prober wakes at its 5 ms timeout: later, not otherwise
    Atomics.notify(control, LOCK, 1);
  }
}

function lock(control: Int32Array): boolean {
  // Stryker disable next-line ArithmeticOperator: reached only while another prober holds the lock
  const deadline = Date.now() + LOCK_WAIT_MILLIS;
  while (Atomics.compareExchange(control, LOCK, 0, 1) !== 0) {
    // Stryker disable next-line EqualityOperator,ConditionalExpression: reached only while another prober has the lock
    if (Date.now() > deadline) return false;
    Atomics.wait(control, LOCK, 1, 5);
  }
  return true;
}

/** Arms the beacon of a place in CLAIMING, then owns it. */
function own(control: Int32Array, place: number): Claim {
  let owned = true;
  const arm = (): void => {
    const waiting = waitAsync(control, beaconAt(place), 0);
    // Stryker disable next-line ConditionalExpression: waitAsync on the never-written beacon always waits
    if (waiting.async) void waiting.value.then(answer);
  };
  // Armed again before the wake is taken off the count, so that no prober finds this owner unarmed and uncounted.
  const answer = (): void => {
    if (!owned) return;
    arm();
    Atomics.sub(control, wakesAt(place), 1);
  };
  Atomics.store(control, wakesAt(place), 0);
  // Stryker disable next-line EqualityOperator: a fifth waiter finds a live owner alive all the same
  for (let i = 0; i < ARMED; i++) arm();
  Atomics.store(control, stateAt(place), OWNED);
  return {
    place,
    release() {
      // Stryker disable next-line ConditionalExpression: its only caller, connectBackupStats's close(), calls it once
      if (!owned) return;
      owned = false;
      // Wakes this owner's own waiters, which then stop, so that none answers for the next owner.
      Atomics.notify(control, beaconAt(place), ARMED);
      Atomics.store(control, stateAt(place), RELEASED);
    },
  };
}
