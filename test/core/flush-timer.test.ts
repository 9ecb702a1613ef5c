// The flush timer: with no collection and no explicit flush, the interval alone moves pending numbers into
// the instruments; it never holds the process open; it survives an instrument that throws. Fake timers make
// the interval fire on demand; the provider counts `add` calls, so nothing here collects (a collection would
// flush by itself and hide a missing timer).
import { createBackupStats } from 'backupstats';
import { afterEach, describe, expect, vi } from 'vitest';
import { createCountingProvider } from '../support/counting-provider.js';
import { it } from '../support/fixtures.js';

/** Fakes the interval timers from here on (the harness's reader, created before, keeps a real one). */
const fakeIntervals = (): void => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
};
afterEach(() => {
  vi.useRealTimers();
});

describe('the flush timer', () => {
  it('moves pending numbers into the instruments every flushIntervalMillis, and stops at shutdown', async ({
    harness,
  }) => {
    fakeIntervals();
    const counting = createCountingProvider(harness.provider);
    const stats = createBackupStats({ meterProvider: counting.provider, flushIntervalMillis: 1000 });
    expect(vi.getTimerCount()).toBe(1);
    const handle = stats.backup.scope({ operation: 'Source:Read' });
    // A series' first record goes to the instruments at once (its start): these two are past it.
    handle.timedIncrement(0, 0);
    stats.restore.timedIncrement(0, 0);
    stats.flush();
    counting.clearAdds();
    handle.timedIncrementBytes(10, 1);
    handle.timedIncrementBytes(20, 1);

    vi.advanceTimersByTime(999);
    expect(counting.adds).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(counting.adds.map((a) => [a.instrument, a.value])).toEqual([
      ['backup.operations', 2],
      ['backup.bytes', 30],
      ['backup.time', 0.002],
    ]);

    counting.clearAdds();
    stats.restore.timedIncrement(5);
    vi.advanceTimersByTime(1000);
    expect(counting.adds.map((a) => [a.instrument, a.value])).toEqual([
      ['restore.operations', 1],
      ['restore.time', 0.005],
    ]);

    await stats.shutdown();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('is not started when every record goes straight to the instruments (flushIntervalMillis 0)', async ({
    harness,
  }) => {
    fakeIntervals();
    const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis: 0 });
    expect(vi.getTimerCount()).toBe(0);
    await stats.shutdown();
  });

  it("never keeps the process alive: it adds no ref'd timer", async ({ harness }) => {
    // Node lists one "Timeout" per timer that holds the event loop open; unref'd timers are not listed.
    const refTimers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = refTimers();
    const probe = setInterval(() => {}, 1000);
    // The probe can tell: a plain interval is listed.
    expect(refTimers()).toBe(before + 1);
    clearInterval(probe);

    const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis: 50 });
    stats.backup.timedIncrement(1);
    expect(refTimers()).toBe(before);
    await stats.shutdown();
  });

  it('an instrument that throws does not escape the timer: reported through diag once per run of failures, retried on the next tick', async ({
    harness,
    diagnostics,
  }) => {
    fakeIntervals();
    const counting = createCountingProvider(harness.provider);
    const stats = createBackupStats({ meterProvider: counting.provider, flushIntervalMillis: 1000 });
    const handle = stats.backup.scope({ operation: 'Source:Read' });
    // A series' first record goes to the instruments at once (its start): this one is past it.
    handle.timedIncrement(0, 0);
    stats.flush();
    counting.clearAdds();
    handle.timedIncrementBytes(7, 1);
    // The first add of the flush throws, before anything of this handle reached an instrument; twice in a row.
    counting.failAdd('backup.operations', 1, new Error('exporter pipeline busy'));
    expect(() => vi.advanceTimersByTime(1000)).not.toThrow();
    counting.failAdd('backup.operations', 1, new Error('still busy'));
    expect(() => vi.advanceTimersByTime(1000)).not.toThrow();
    expect(counting.adds).toEqual([]);
    expect(diagnostics.messages).toHaveLength(1);
    expect(diagnostics.messages[0]).toMatch(/^backupstats: .*exporter pipeline busy/);

    vi.advanceTimersByTime(1000);
    expect(counting.adds.map((a) => [a.instrument, a.value])).toEqual([
      ['backup.operations', 1],
      ['backup.bytes', 7],
      ['backup.time', 0.001],
    ]);

    // A failure after a flush that went through is a new run: reported again.
    handle.timedIncrement(1);
    counting.failAdd('backup.operations', 1, new Error('busy again'));
    vi.advanceTimersByTime(1000);
    expect(diagnostics.messages).toHaveLength(2);
    expect(diagnostics.messages[1]).toMatch(/^backupstats: .*busy again/);
    await stats.shutdown();
  });
});
