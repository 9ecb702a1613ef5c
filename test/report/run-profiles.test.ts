// What the report says of a run from the series of its family: its stages are the other series that moved while it
// ran, and its stored bytes, unless given, are its family's destination writes while it ran alone; the latest 50
// runs of a family are kept.
import { createBackupStats } from 'backupstats';
import { reportData } from 'backupstats/report';
import { afterEach, describe, expect, vi } from 'vitest';
import { it } from '../support/fixtures.js';

const ENGINE = { component: 'BackupEngine', implementation: 'Builtin' };

describe('a run in the report', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts when its start was called: two runs a millisecond apart keep their order, whichever ended first', async ({
    harness,
  }) => {
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    const T0 = Date.UTC(2026, 11, 1, 23, 0, 0);
    vi.setSystemTime(T0);
    const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis: 2 ** 30 });
    // Each handle's first run, so that neither waits out a millisecond of its own.
    stats.backup
      .scope({ ...ENGINE, operation: 'Backup' })
      .startRun()
      .succeed();
    stats.backup
      .scope({ ...ENGINE, implementation: 'Later', operation: 'Backup' })
      .startRun()
      .succeed();
    vi.setSystemTime(T0 + 10_000);
    vi.advanceTimersByTime(0.4);
    const first = stats.backup.scope({ ...ENGINE, operation: 'Backup' }).startRun();
    vi.advanceTimersByTime(0.6);
    const second = stats.backup.scope({ ...ENGINE, implementation: 'Later', operation: 'Backup' }).startRun();
    // The second ends first, 0.9 ms after its start: its end less its duration would say it started before the first.
    vi.advanceTimersByTime(0.9);
    second.succeed();
    vi.advanceTimersByTime(0.1);
    first.succeed();
    const runs = reportData(stats).runs.slice(2);
    expect(runs.map((run) => [run.implementation, run.startedAt])).toEqual([
      ['Builtin', T0 + 10_000],
      ['Later', T0 + 10_001],
    ]);
    await stats.shutdown();
  });

  it("has the other series that moved while it ran as its stages, never its own, whatever the run's operation", async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis: 2 ** 30 });
    const job = stats.backup.scope({ ...ENGINE, operation: 'Job' });
    const read = stats.backup.scope({ ...ENGINE, operation: 'Source:Read' });
    const idle = stats.backup.scope({ ...ENGINE, operation: 'Source:Open' });
    idle.timedIncrement(1);
    read.timedIncrementBytes(100, 1);
    stats.flush();
    const run = job.startRun();
    job.timedIncrementBytes(5, 5);
    read.timedIncrementBytes(200, 2);
    read.timedIncrementBytes(300, 3);
    run.succeed();
    const [only] = reportData(stats).runs;
    expect(only?.stages).toEqual([
      expect.objectContaining({ operation: 'Source:Read', count: 2, bytes: 500, seconds: 0.005 }),
    ]);
    await stats.shutdown();
  });

  it('stored what its family wrote while it ran alone: nothing known when no write moved, or another run overlapped it', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis: 2 ** 30 });
    const write = stats.backup.scope({
      component: 'BackupStorage',
      implementation: 'File',
      operation: 'Destination:Write',
    });
    const backup = stats.backup.scope({ ...ENGINE, operation: 'Backup' });
    write.timedIncrementBytes(1000, 1);
    stats.flush();
    // No write while it ran: the bytes it stored are unknown, not 0.
    backup.startRun().succeed(10);
    // Alone: its writes, flushed or pending.
    const alone = backup.startRun();
    write.timedIncrementBytes(300, 1);
    stats.flush();
    write.timedIncrementBytes(400, 1);
    alone.succeed(10);
    // Two at once: the writes may be either's; given bytes are kept.
    const first = backup.startRun();
    const second = backup.startRun();
    write.timedIncrementBytes(500, 1);
    first.succeed(10);
    second.succeed(10, { storedBytes: 50 });
    expect(reportData(stats).runs.map((run) => run.storedBytes)).toEqual([null, 700, null, 50]);
    await stats.shutdown();
  });

  it('of unthrottled stats has no measured stored bytes: their writes pass the timeline', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis: 0 });
    const run = stats.backup.scope({ ...ENGINE, operation: 'Backup' }).startRun();
    stats.backup.scope({ ...ENGINE, operation: 'Destination:Write' }).timedIncrementBytes(700, 1);
    run.succeed(10);
    expect(reportData(stats).runs).toEqual([expect.objectContaining({ storedBytes: null, stages: [] })]);
    await stats.shutdown();
  });

  it('is one of the latest 50 of its family, oldest first', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis: 2 ** 30 });
    const backup = stats.backup.scope({ ...ENGINE, operation: 'Backup' });
    for (let i = 1; i <= 52; i++) backup.startRun().succeed(i);
    stats.restore
      .scope({ ...ENGINE, operation: 'Restore' })
      .startRun()
      .succeed(1000);
    const runs = reportData(stats).runs;
    const backups = runs.filter((run) => run.family === 'backup').map((run) => run.bytes);
    expect(backups).toEqual(Array.from({ length: 50 }, (_, i) => i + 3));
    expect(runs.filter((run) => run.family === 'restore')).toHaveLength(1);
    await stats.shutdown();
  });
});
