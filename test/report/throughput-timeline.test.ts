// Where the report's throughput over time puts bytes, on vitest's fake wall clock (`Date`), which the timeline
// reads at each flush: a writer of 100,000 bytes every 100 ms, flushed every second, writes at exactly 1,000,000
// bytes a second, so every interval of the report's time axis inside its writing reads that, and none after it.
import { createBackupStats } from 'backupstats';
import { type BackupStatsReport, reportData } from 'backupstats/report';
import { afterEach, beforeEach, describe, expect, vi } from 'vitest';
import { it } from '../support/fixtures.js';

const START = 1_800_000_000_000;
const CHUNK = 100_000;
const RATE = 1_000_000;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(START);
});
afterEach(() => {
  vi.useRealTimers();
});

/** The writer's bytes a second per interval of the axis, with the interval's start and end (ms from START). */
function writerRates(report: BackupStatsReport): { from: number; to: number; rate: number | null }[] {
  const writer = report.timelines.find((t) => t.operation === 'Destination:Write');
  if (writer === undefined) throw new Error('no timeline for Destination:Write');
  return report.times.slice(1).map((to, i) => ({
    from: (report.times[i] as number) - START,
    to: to - START,
    rate: writer.bytesPerSecond[i + 1] ?? null,
  }));
}

/** The bytes the rates add up to over their intervals. */
function bytesOf(rates: ReturnType<typeof writerRates>): number {
  return rates.reduce((sum, { from, to, rate }) => sum + ((rate ?? 0) * (to - from)) / 1000, 0);
}

describe('the throughput timeline', () => {
  it('keeps a steady writer steady when a new series records between two flushes, and puts nothing after it stops', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis: 2 ** 30 });
    const writer = stats.restore.scope({
      component: 'BackupEngine',
      implementation: 'Builtin',
      operation: 'Destination:Write',
    });
    const other = stats.restore.scope({
      component: 'BackupEngine',
      implementation: 'Builtin',
      operation: 'Source:Close',
    });
    for (let t = 100; t <= 4000; t += 100) {
      vi.setSystemTime(START + t);
      if (t <= 3000) writer.timedIncrementBytes(CHUNK, 5);
      if (t === 3500) other.timedIncrement(0.1);
      if (t % 1000 === 0) stats.flush();
      if (t === 2900) {
        // A series' first record, between two flushes: it goes to the instruments at once.
        vi.setSystemTime(START + 2950);
        other.timedIncrement(0.1);
      }
    }
    const report = reportData(stats);
    const rates = writerRates(report);
    // The axis spans the writer's zero (the stats' creation) to the last flush.
    expect(report.times[0]).toBe(START);
    expect(report.times.at(-1)).toBe(START + 4000);
    const during = rates.filter(({ to }) => to <= 3000);
    const after = rates.filter(({ from }) => from >= 3000);
    expect(during.length).toBeGreaterThan(80);
    for (const { from, to, rate } of during) expect(rate, `${from}-${to} ms`).toBeCloseTo(RATE, -1);
    expect(after.length).toBeGreaterThan(20);
    for (const { from, to, rate } of after) expect(rate, `${from}-${to} ms`).toBe(0);
    // The interval where it stopped included: the course holds every byte, no more.
    expect(bytesOf(rates) / (30 * CHUNK)).toBeCloseTo(1, 6);
    await stats.shutdown();
  });

  it('puts a series that resumes after idle flushes in the interval since the last flush, not since its last move', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis: 2 ** 30 });
    const writer = stats.backup.scope({ operation: 'Destination:Write' });
    const other = stats.backup.scope({ operation: 'Source:Read' });
    // The writer writes in the first second and the fourth; the other series alone moves in between, and a new
    // series records once in the fourth second, before the writer's writes.
    for (let t = 100; t <= 4000; t += 100) {
      vi.setSystemTime(START + t);
      if (t === 3100) stats.backup.scope({ operation: 'Destination:Open' }).timedIncrement(1);
      if (t <= 1000 || t > 3000) writer.timedIncrementBytes(CHUNK, 5);
      else other.timedIncrementBytes(1, 1);
      if (t % 1000 === 0) stats.flush();
    }
    const rates = writerRates(reportData(stats));
    for (const { from, to, rate } of rates) {
      const expected = to <= 1000 || from >= 3000 ? RATE : from >= 1000 && to <= 3000 ? 0 : undefined;
      if (expected !== undefined) expect(rate, `${from}-${to} ms`).toBeCloseTo(expected, -1);
    }
    await stats.shutdown();
  });
  it('keeps two idle flushes of a writer that moved at 18 others flat: a flush it moved in adds one sample', async ({
    harness,
  }) => {
    // 18 moves and the sample of the idle stretch's end fit the samples a series keeps: none is halved away.
    const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis: 2 ** 30 });
    const writer = stats.backup.scope({ operation: 'Destination:Write' });
    for (let second = 1; second <= 20; second++) {
      vi.setSystemTime(START + second * 1000);
      if (second <= 8 || second > 10) writer.timedIncrementBytes(CHUNK, 5);
      stats.flush();
    }
    const rates = writerRates(reportData(stats));
    const idle = rates.filter(({ from, to }) => from >= 8000 && to <= 10_000);
    expect(idle.length).toBeGreaterThan(8);
    for (const { from, to, rate } of idle) expect(rate, `${from}-${to} ms`).toBe(0);
    const writing = rates.filter(({ from, to }) => to <= 8000 || from >= 10_000);
    for (const { from, to, rate } of writing) expect(rate, `${from}-${to} ms`).toBeCloseTo(CHUNK, -1);
    await stats.shutdown();
  });

  it('keeps the whole course of a long writer at an even resolution: its rate changes stay where they were', async ({
    harness,
  }) => {
    // 300 flushes, a second apart, each after a write: far more moves than a series keeps samples, so its samples
    // are halved again and again. The writer writes 1,000 bytes a second for 30 s, then 3,000 until 250 s, then 2,000.
    const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis: 2 ** 30 });
    const writer = stats.backup.scope({ operation: 'Destination:Write' });
    const rateAt = (second: number) => (second <= 30 ? 1000 : second <= 250 ? 3000 : 2000);
    let written = 0;
    for (let second = 1; second <= 300; second++) {
      vi.setSystemTime(START + second * 1000);
      writer.timedIncrementBytes(rateAt(second), 10);
      written += rateAt(second);
      stats.flush();
      if (second > 200) {
        // After each flush, those that halve the samples included: the course ends there and holds every byte.
        const sofar = reportData(stats);
        expect(sofar.times.at(-1)).toBe(START + second * 1000);
        expect(bytesOf(writerRates(sofar)) / written).toBeCloseTo(1, 5);
      }
    }
    const report = reportData(stats);
    expect(report.series).toEqual([
      expect.objectContaining({ operation: 'Destination:Write', count: 300, bytes: written, seconds: 3 }),
    ]);
    expect(report.times[0]).toBe(START);
    // Kept samples are evenly spaced, 16 s apart by now: only the intervals within 16 s of a change can blur.
    const rates = writerRates(report);
    const steady = rates.filter(({ from, to }) =>
      [30_000, 250_000].every((at) => to <= at - 16_000 || from >= at + 16_000),
    );
    expect(steady.length).toBeGreaterThan(85);
    for (const { from, to, rate } of steady) expect(rate, `${from}-${to} ms`).toBeCloseTo(rateAt(to / 1000), 3);
    await stats.shutdown();
  });
  it('gives no rate to the intervals of a short course where two points of the axis fall on one millisecond', async ({
    harness,
  }) => {
    // 40 ms of writing at 1,000,000 bytes a second: the axis' 120 points are a third of a millisecond apart.
    const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis: 2 ** 30 });
    const writer = stats.backup.scope({ operation: 'Destination:Write' });
    for (let t = 10; t <= 40; t += 10) {
      vi.setSystemTime(START + t);
      writer.timedIncrementBytes(10_000, 1);
      stats.flush();
    }
    const rates = writerRates(reportData(stats)).map(({ rate }) => rate);
    expect(rates.filter((rate) => rate === null).length).toBeGreaterThan(60);
    expect(rates.filter((rate) => rate !== null)).toEqual(Array.from({ length: 40 }, () => RATE));
    await stats.shutdown();
  });
  it("sums an operation's series: two writers of half the bytes each, busy 5 % of the time each", async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis: 2 ** 30 });
    const writers = ['A', 'B'].map((implementation) =>
      stats.backup.scope({ component: 'BackupStorage', implementation, operation: 'Destination:Write' }),
    );
    for (let t = 100; t <= 3000; t += 100) {
      vi.setSystemTime(START + t);
      for (const writer of writers) writer.timedIncrementBytes(CHUNK / 2, 5);
      if (t % 1000 === 0) stats.flush();
    }
    const report = reportData(stats);
    expect(report.timelines).toHaveLength(1);
    const [writes] = report.timelines;
    expect(writes?.bytesPerSecond).toHaveLength(report.times.length);
    expect(writes?.busyShare).toHaveLength(report.times.length);
    // From the first flush on: before it, the first writes went at once, ahead of the others.
    for (let i = 1; i < report.times.length; i++) {
      if ((report.times[i - 1] as number) < START + 1000) continue;
      expect(writes?.bytesPerSecond[i], `${i}`).toBeCloseTo(RATE, -1);
      expect(writes?.busyShare[i], `${i}`).toBeCloseTo(0.1, 6);
    }
    await stats.shutdown();
  });
});
