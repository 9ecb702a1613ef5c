/** A clock the meters read: `performance`, or a stand-in with the same `now()`. */
export type Clock = { now(): number };

/** Reads per batch, and batches: the cheapest batch is the cost, so a batch the scheduler interrupted does not count. */
const READS = 32;
const BATCHES = 5;

const costs = new WeakMap<Clock, number>();

/**
 * What one read of `clock` costs, in milliseconds: measured once per clock (so once per process for the global
 * `performance`), by timing batches of reads with the clock itself, about 10 µs in all. The sampled timing keeps
 * the clock's share of the time it measures near its budget with it. A clock that does not move while it is read
 * (a test's fake clock) costs 0.
 */
export function clockCostOf(clock: Clock): number {
  let cost = costs.get(clock);
  if (cost === undefined) {
    cost = Number.POSITIVE_INFINITY;
    for (let batch = 0; batch < BATCHES; batch++) {
      const start = clock.now();
      for (let i = 0; i < READS; i++) clock.now();
      // The batch's own reads: READS in the loop and the one that ends it.
      cost = Math.min(cost, (clock.now() - start) / (READS + 1));
    }
    costs.set(clock, cost);
  }
  return cost;
}
