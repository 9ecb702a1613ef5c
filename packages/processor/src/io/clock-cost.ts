/** A clock the meters read: `performance`, or a stand-in with the same `now()`. */
export type Clock = { now(): number };

/** What one read of a clock costs, in milliseconds, refined as the process runs. */
export interface ClockCost {
  /** The cheapest read seen so far. */
  perRead: number;
  /** Back-to-back pairs of reads taken since to refine it. */
  refinements: number;
}

/** Reads per batch and batches of the first measurement. */
const READS = 32;
const BATCHES = 5;
/** Pairs of reads that refine it: enough for the hot read's cost to show, few enough to cost nothing. */
const REFINEMENTS = 64;

const costs = new WeakMap<Clock, ClockCost>();

/**
 * What one read of `clock` costs, shared by every meter of that clock (so once per process for the global
 * `performance`). The first measurement times batches of reads when the first stream is metered (about 10 µs);
 * it runs before the JIT compiler has warmed up, so it reads high (about 3 times the hot cost here), and
 * {@link refineClockCost} brings it down with back-to-back reads taken on the hot path. A clock that does not move
 * while it is read (a test's fake clock) costs 0, and is never refined.
 */
export function clockCostOf(clock: Clock): ClockCost {
  let cost = costs.get(clock);
  if (cost === undefined) {
    let perRead = Number.POSITIVE_INFINITY;
    for (let batch = 0; batch < BATCHES; batch++) {
      const start = clock.now();
      for (let i = 0; i < READS; i++) clock.now();
      // The batch's own reads: READS in the loop and the one that ends it.
      perRead = Math.min(perRead, (clock.now() - start) / (READS + 1));
    }
    cost = { perRead, refinements: perRead === 0 ? REFINEMENTS : 0 };
    costs.set(clock, cost);
  }
  return cost;
}

/** Takes one pair of back-to-back reads, while the cost still wants refining; the cheapest pair wins. */
export function refineClockCost(cost: ClockCost, clock: Clock): void {
  if (cost.refinements >= REFINEMENTS) return;
  cost.refinements += 1;
  const first = clock.now();
  const read = clock.now() - first;
  // Stryker disable next-line EqualityOperator: an equal read stores the value already there
  if (read < cost.perRead) cost.perRead = read;
}
