// Timing by budget, the stream meters' default: operations long next to the clock are all timed; shorter ones one
// in N, N adapting so that the clock's reads take about 1 % of the time measured, and the summed time stays an
// unbiased estimate of the exact one; through a pipeline of the three stream meters, well under one clock read per
// chunk. On a clock whose every read costs 50 ns, with seeded random draws. That the estimate has no bias over many
// seeds is test/property/timing-bias.test.ts.
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { meterIterable, meterReadable, meterTransform, meterWritable } from 'backupstats';
import { createRecordingStats } from 'backupstats/testing';
import { describe, expect, it } from 'vitest';
import { around, READ_COST, writeAll } from '../support/budget-writes.js';
import { costlyClock } from '../support/fake-clock.js';

describe('timing by budget (the default)', () => {
  it('times every operation that is long next to the clock, exactly, with weight 1', async () => {
    const clock = costlyClock(READ_COST, 1);
    const durations = around(1, 200);
    const stats = await writeAll(clock, durations);
    expect(stats.calls.map((c) => c.weight)).toEqual(durations.map(() => 1));
    // Each duration as the write took it, plus the cost of the read that ended it.
    stats.calls.forEach((call, i) => {
      expect(call.durationMillis).toBeCloseTo((durations[i] as number) + READ_COST, 9);
    });
  });

  it('times short operations one in N, N keeping the clock near 1 % of the time measured', async () => {
    const clock = costlyClock(READ_COST, 2);
    const n = 20_000;
    // 1 µs on average: two reads (100 ns) on every one would be 10 %.
    const durations = around(0.001, n);
    const before = clock.reads();
    const stats = await writeAll(clock, durations);
    const readsMillis = (clock.reads() - before) * READ_COST;
    const measured = durations.reduce((a, b) => a + b, 0);
    expect(stats.calls).toHaveLength(n);
    expect(readsMillis / measured).toBeGreaterThan(0.005);
    expect(readsMillis / measured).toBeLessThan(0.015);
    const timed = stats.calls.filter((c) => c.weight > 0);
    // N is about ceil(0.01 ms / 1.05 µs) = 10.
    expect(timed.length).toBeGreaterThan(n / 12);
    expect(timed.length).toBeLessThan(n / 8);
  });

  it('sums within 3 % of exact timing over 20,000 operations, counts and bytes exact', async () => {
    const durations = (() => {
      costlyClock(READ_COST, 3);
      return around(0.001, 20_000);
    })();
    const exact = await writeAll(costlyClock(READ_COST, 4), durations, 1);
    const budget = await writeAll(costlyClock(READ_COST, 5), durations);
    expect(budget.totals().count).toBe(exact.totals().count);
    expect(budget.totals().bytes).toBe(exact.totals().bytes);
    const ratio = budget.totals().durationMillis / exact.totals().durationMillis;
    expect(Math.abs(ratio - 1)).toBeLessThan(0.03);
  });

  it('meterIterable samples by budget too, and counts every item with its bytes', async () => {
    const clock = costlyClock(READ_COST, 8);
    const n = 5000;
    async function* items(): AsyncGenerator<Buffer> {
      for (let i = 0; i < n; i++) {
        clock.spend(0.001);
        yield Buffer.alloc(2);
      }
    }
    const stats = createRecordingStats();
    for await (const _item of meterIterable(items(), stats)) {
      // the consumer takes no time of its own
    }
    expect(stats.totals()).toMatchObject({ count: n, bytes: 2 * n });
    const timed = stats.calls.filter((c) => c.weight > 0).length;
    expect(timed).toBeGreaterThan(n / 12);
    expect(timed).toBeLessThan(n / 8);
  });
});

describe('timing by budget through a pipeline', () => {
  it('three metered stages of 1 µs each read the clock under once per chunk in all, every chunk counted', async () => {
    const clock = costlyClock(READ_COST, 9);
    const chunks = 20_000;
    const chunk = Buffer.alloc(4096);
    let sent = 0;
    const source = new Readable({
      read() {
        while (sent < chunks) {
          sent += 1;
          clock.spend(0.001);
          if (!this.push(chunk)) return;
        }
        this.push(null);
      },
    });
    const transform = new Transform({
      transform(data, _encoding, callback) {
        clock.spend(0.001);
        callback(null, data);
      },
    });
    const sink = new Writable({
      write(_data, _encoding, callback) {
        clock.spend(0.001);
        callback();
      },
    });
    const stages = [createRecordingStats(), createRecordingStats(), createRecordingStats()] as const;
    meterReadable(source, stages[0]);
    meterTransform(transform, stages[1]);
    meterWritable(sink, stages[2]);
    const before = clock.reads();
    await pipeline(source, transform, sink);
    const reads = (clock.reads() - before) / chunks;
    for (const stats of stages) expect(stats.totals()).toMatchObject({ count: chunks, bytes: chunks * 4096 });
    // Exact timing takes six reads per chunk (two per stage). The budget times about one chunk in ten per stage
    // (ceil(0.01 ms / 1.05 µs)), two reads each, plus the reads that measure the clock and the source's read requests.
    expect(reads).toBeGreaterThan(0.3);
    expect(reads).toBeLessThan(1);
    for (const stats of stages) expect(stats.calls.filter((c) => c.weight > 0).length).toBeLessThan(chunks / 8);
  });
});
