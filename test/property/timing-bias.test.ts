// Timing by budget is an unbiased estimate: over 1000 seeded runs of the same heavy-tailed writes, the mean of the
// sampled sums is the exact sum. Here beside the property tests rather than in test/io because, like them, it is
// many runs of one test: under the mutation run's instrumented source (`pnpm test:mutation`) it takes about 17 s,
// which every mutant it covers (some 320) would pay.
import { describe, expect, it } from 'vitest';
import { READ_COST, writeAll } from '../support/budget-writes.js';
import { costlyClock } from '../support/fake-clock.js';

describe('timing by budget (the default)', () => {
  it('has no bias: over 1000 seeds, the mean of the sampled sums is within four standard errors of the exact sum', async () => {
    costlyClock(READ_COST, 6);
    // A heavy tail: one operation in ten takes twenty times as long.
    const durations = Array.from({ length: 300 }, (_, i) => (i % 10 === 3 ? 0.02 : 0.001));
    const exact = (await writeAll(costlyClock(READ_COST, 7), durations, 1)).totals().durationMillis;
    const sums: number[] = [];
    for (let seed = 1000; seed < 2000; seed++) {
      sums.push((await writeAll(costlyClock(READ_COST, seed), durations)).totals().durationMillis);
    }
    const mean = sums.reduce((a, b) => a + b, 0) / sums.length;
    const variance = sums.reduce((a, b) => a + (b - mean) ** 2, 0) / (sums.length - 1);
    const standardError = Math.sqrt(variance / sums.length);
    // The test has power: one standard error is under 2 % of the sum.
    expect(standardError / exact).toBeLessThan(0.02);
    expect(Math.abs(mean - exact)).toBeLessThan(4 * standardError);
  });
});
