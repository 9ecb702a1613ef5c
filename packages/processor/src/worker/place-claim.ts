// Which worker writes into which place of a link. Every place has one writer at a time, so that a record is plain
// additions to numbers no other thread writes. A worker takes a free place, or one whose worker closed or is gone,
// and goes on adding to the numbers it holds: they are cumulative, and the main thread reads only what they gained.
//
// A gone worker is told from a live one without a message: while it owns a place, a worker keeps an
// Atomics.waitAsync pending on the place's beacon word. V8 drops the waiters of a thread that ends, however it
// ends (terminate(), an uncaught exception, process.exit()), so Atomics.notify on the beacon wakes 1 for a live
// owner and 0 for a gone one. A woken owner waits again when its event loop next runs, then clears the place's
// `woken` mark and notifies it; a prober sets the mark before it wakes, so that an owner found unarmed with the
// mark already set is one that was woken and is busy, never a gone one. Probers take a lock, so that none wakes
// while another judges, and wait a moment for a woken owner's answer, so that an owner stopped right after a
// probe is found gone by the next one. A pending waitAsync does not keep a worker's event loop alive.

/** Place states. */
const FREE = 0;
/** Being taken: its new owner is arming its beacon, and no prober may judge it. */
const CLAIMING = 1;
const OWNED = 2;
/** Closed by its owner: the next worker takes it as it is. */
const RELEASED = 3;

const LOCK = 0;
const stateAt = (place: number): number => 1 + 3 * place;
const beaconAt = (place: number): number => 2 + 3 * place;
const wokenAt = (place: number): number => 3 + 3 * place;

/** Int32 words of a link's control buffer for `places` places. */
export const CONTROL_WORDS = (places: number): number => 1 + 3 * places;

/** How long a worker waits for another prober's lock before it gives up looking for a gone worker's place. */
const LOCK_WAIT_MILLIS = 200;
/** How long a prober waits for a woken owner to wait again (an idle one does at once). */
const ANSWER_WAIT_MILLIS = 20;

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

/** Takes a place of the link: a free one, one released, or one whose worker is gone; undefined when none is. */
export function claimPlace(control: Int32Array, places: number): Claim | undefined {
  for (const from of [FREE, RELEASED]) {
    for (let place = 0; place < places; place++) {
      if (Atomics.compareExchange(control, stateAt(place), from, CLAIMING) === from) return own(control, place);
    }
  }
  const gone = findGone(control, places);
  return gone === undefined ? undefined : own(control, gone);
}

/** A place whose owner is gone, taken (CLAIMING) under the probers' lock. */
function findGone(control: Int32Array, places: number): number | undefined {
  if (!lock(control)) return undefined;
  try {
    for (let place = 0; place < places; place++) {
      if (Atomics.load(control, stateAt(place)) !== OWNED) continue;
      const wokenBefore = Atomics.exchange(control, wokenAt(place), 1);
      if (Atomics.notify(control, beaconAt(place), 1) === 1) {
        Atomics.wait(control, wokenAt(place), 1, ANSWER_WAIT_MILLIS);
        continue;
      }
      // Unarmed: woken by an earlier probe and busy since, or gone.
      if (wokenBefore === 1) continue;
      if (Atomics.compareExchange(control, stateAt(place), OWNED, CLAIMING) === OWNED) return place;
    }
    return undefined;
  } finally {
    Atomics.store(control, LOCK, 0);
    Atomics.notify(control, LOCK, 1);
  }
}

function lock(control: Int32Array): boolean {
  const deadline = Date.now() + LOCK_WAIT_MILLIS;
  while (Atomics.compareExchange(control, LOCK, 0, 1) !== 0) {
    if (Date.now() > deadline) return false;
    Atomics.wait(control, LOCK, 1, 5);
  }
  return true;
}

/** Arms the beacon of a place in CLAIMING, then owns it. */
function own(control: Int32Array, place: number): Claim {
  let owned = true;
  const arm = (): void => {
    if (!owned) return;
    const waiting = waitAsync(control, beaconAt(place), 0);
    if (waiting.async) void waiting.value.then(arm);
    // Cleared only once waiting again, so that no prober finds this live owner unarmed and unmarked.
    Atomics.store(control, wokenAt(place), 0);
    Atomics.notify(control, wokenAt(place), 1);
  };
  arm();
  Atomics.store(control, stateAt(place), OWNED);
  return {
    place,
    release() {
      if (!owned) return;
      owned = false;
      // Wakes this owner's own waiter, which then stops, so that no stale waiter answers for the next owner.
      Atomics.notify(control, beaconAt(place), 1);
      Atomics.store(control, stateAt(place), RELEASED);
    },
  };
}
