// The edges of a run's progress and phases: the longest phase name kept, a size given to a run that has one or has
// ended, a run without a size on a handle whose other run has one, through a real MeterProvider on a fake clock
// (Date and performance). test/runs/progress.test.ts covers the values of a run in progress.
import { createBackupStats, Operation } from 'backupstats';
import { describe, expect, vi } from 'vitest';
import { it } from '../support/fixtures.js';
import { numbers } from '../support/harness.js';
import { runKey } from '../support/series-key.js';
import { useFakeWallClock } from '../support/wall-clock.js';

const RUN = { component: 'BackupEngine', implementation: 'Builtin', operation: Operation.Backup };
const SOURCE = { ...RUN, operation: Operation.SourceRead };
const NOT_NOW = { flushIntervalMillis: 2 ** 30 };
const INVALID = runKey('backupstats.invalid_measurements', { family: 'backup' });

useFakeWallClock();

describe('phase names', () => {
  it('a name of 64 characters is kept, one of 65 dropped and counted', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW, quiet: true });
    const run = stats.backup.scope(RUN).startRun();
    const longest = 'p'.repeat(64);
    run.phase(longest);
    run.phase(`${longest}q`);
    run.phase('x');
    const values = numbers(await harness.collect());
    expect(values.get(runKey('backup.run.phase', { ...RUN, phase: longest }))).toBe(0);
    expect(values.get(runKey('backup.run.phase', { ...RUN, phase: 'x' }))).toBe(1);
    expect(values.has(runKey('backup.run.phase', { ...RUN, phase: `${longest}q` }))).toBe(false);
    expect(values.get(INVALID)).toBe(1);
    run.succeed();
    await stats.shutdown();
  });

  it('a name that is too long is reported once as such, with its length, not as a bad byte count or duration', async ({
    harness,
    diagnostics,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const run = stats.backup.scope(RUN).startRun();
    run.phase(`${'p'.repeat(64)}qq`);
    run.phase('r'.repeat(100));
    run.phase(42 as unknown as string);
    for (let i = 1; i <= 17; i++) run.phase(`p${i}`);
    const values = numbers(await harness.collect());
    expect(values.get(INVALID)).toBe(4);
    expect(diagnostics.messages).toEqual([
      `backupstats: dropped the backup run phase name "${'p'.repeat(64)}" (66 characters): a phase name is a string of 1 to 64 characters, of at most 16 distinct ones per handle; further invalid phase names are counted in backupstats.invalid_measurements without a message`,
    ]);
    run.succeed();
    await stats.shutdown();
  });
});

describe('expectBytes', () => {
  it('is ignored, and not counted, on a run that has ended or was started with a size', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW, quiet: true });
    const sized = stats.backup.scope(RUN).startRun({ expectedBytes: 400 });
    sized.expectBytes(100);
    stats.backup.scope(SOURCE).timedIncrementBytes(100, 1);
    vi.advanceTimersByTime(1000);
    let values = numbers(await harness.collect());
    expect(values.get(runKey('backup.run.progress', RUN))).toBe(0.25);
    expect(values.get(runKey('backup.active_runs', RUN))).toBe(1);
    sized.succeed();
    sized.expectBytes(1000);
    const other = { ...RUN, implementation: 'Other' };
    const ended = stats.backup.scope(other).startRun();
    ended.fail();
    ended.expectBytes(1000);
    values = numbers(await harness.collect());
    expect(values.get(runKey('backup.active_runs', RUN))).toBe(0);
    expect(values.get(runKey('backup.run.progress', RUN))).toBe(0.25);
    expect(values.has(runKey('backup.active_runs', other))).toBe(false);
    expect(values.has(runKey('backup.run.progress', other))).toBe(false);
    expect(values.get(INVALID)).toBe(0);
    await stats.shutdown();
  });
});

describe('a run without a size on a handle whose other run has one', () => {
  it('leaves the runs in progress with a size as they are when it names a phase and ends', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const handle = stats.backup.scope(RUN);
    const sized = handle.startRun({ expectedBytes: 1000 });
    const plain = handle.startRun();
    plain.phase('verify');
    stats.backup.scope(SOURCE).timedIncrementBytes(500, 1);
    vi.advanceTimersByTime(10_000);
    let values = numbers(await harness.collect());
    expect(values.get(runKey('backup.active_runs', RUN))).toBe(1);
    expect(values.get(runKey('backup.run.progress', RUN))).toBe(0.5);
    expect(values.get(runKey('backup.run.remaining_time', RUN))).toBe(10);
    plain.succeed();
    values = numbers(await harness.collect());
    expect(values.get(runKey('backup.active_runs', RUN))).toBe(1);
    expect(values.get(runKey('backup.run.phase', { ...RUN, phase: 'verify' }))).toBe(0);
    sized.succeed();
    values = numbers(await harness.collect());
    expect(values.get(runKey('backup.active_runs', RUN))).toBe(0);
    await stats.shutdown();
  });
});
