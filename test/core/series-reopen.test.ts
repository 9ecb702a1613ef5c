// When a buffered series' record goes to the instruments at once: at its first record, and at its first record after
// a whole collection without an add (the SDK would otherwise start its point after the collection's end); a series
// recorded on in every interval waits for the flushes. Its latency histogram starts at its first add, and keeps that
// start when the series resumes. Seen through the `add` calls and the histogram point's start, on a fake wall clock.
import { createBackupStats, createHistogramProducer } from 'backupstats';
import { describe, expect, onTestFinished, vi } from 'vitest';
import { createCountingProvider } from '../support/counting-provider.js';
import { it } from '../support/fixtures.js';
import { createHarness } from '../support/harness.js';

/** The far end of setInterval's range: the flush timer never fires during a test. */
const NEVER = 2 ** 31 - 1;
const LABELS = { component: 'C', implementation: 'I', operation: 'O' };
const T0 = 1_700_000_000_000;

describe('a buffered series after collections', () => {
  it('recorded on after one collection it waits for the flush; idle through a whole collection, it adds at once', async ({
    harness,
  }) => {
    const counting = createCountingProvider(harness.provider);
    const stats = createBackupStats({ meterProvider: counting.provider, flushIntervalMillis: NEVER });
    onTestFinished(() => stats.shutdown());
    const handle = stats.backup.scope(LABELS);
    const atOnce = [
      { instrument: 'backup.operations', value: 1, attributes: LABELS },
      { instrument: 'backup.time', value: 0.002, attributes: LABELS },
    ];
    handle.timedIncrement(2);
    expect(counting.adds).toEqual(atOnce);

    // The collection's flush adds what the handle still held; the next record is in the interval after it.
    await harness.collect();
    counting.clearAdds();
    handle.timedIncrement(2);
    expect(counting.adds).toEqual([]);
    // And so at every collection after it: the collections' count only grows (a count that went down would meet the
    // mark of a series never added, -1, here).
    await harness.collect();
    counting.clearAdds();
    handle.timedIncrement(2);
    expect(counting.adds).toEqual([]);

    // Added by this collection's flush, then a whole collection without an add: the next record goes at once.
    await harness.collect();
    await harness.collect();
    counting.clearAdds();
    handle.timedIncrement(2);
    expect(counting.adds).toEqual(atOnce);
  });

  it("its histogram starts at the series' first add, not at its scope(), and keeps that start when it resumes", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const producer = createHistogramProducer();
    const harness = createHarness(undefined, undefined, [[producer]]);
    const stats = createBackupStats({
      meterProvider: harness.provider,
      histogramProducers: [producer],
      flushIntervalMillis: NEVER,
    });
    onTestFinished(async () => {
      await stats.shutdown();
      await harness.shutdown();
    });
    const handle = stats.backup.scope(LABELS);
    vi.setSystemTime(T0 + 1_000);
    handle.timedIncrement(2);
    const start = async (): Promise<unknown> =>
      (await harness.collect()).scopeMetrics
        .flatMap((s) => s.metrics)
        .find((m) => m.descriptor.name === 'backup.operation.duration')?.dataPoints[0]?.startTime;
    expect(await start()).toEqual([1_700_000_001, 0]);
    // Idle through a whole collection, then recorded on again: its numbers go at once, its start stays.
    await harness.collect();
    vi.setSystemTime(T0 + 5_000);
    handle.timedIncrement(2);
    expect(await start()).toEqual([1_700_000_001, 0]);
  });
});
