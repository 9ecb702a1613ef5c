// Runs in progress given an expected size: how far they are (the bytes of their progress operation taken at the
// flushes, over the size), the time left at the throughput of the last minute, when they last moved, and the
// phases they name, through a real MeterProvider on a fake clock (Date and performance), so that every value is
// exact. Read at collections, never on the record path.
import { createBackupStats, type Naming, Operation, trackRun } from 'backupstats';
import { afterEach, beforeEach, describe, expect, vi } from 'vitest';
import { it } from '../support/fixtures.js';
import { numbers } from '../support/harness.js';
import { runKey } from '../support/series-key.js';

const RUN = { component: 'BackupEngine', implementation: 'Builtin', operation: Operation.Backup };
const NOT_NOW = { flushIntervalMillis: 2 ** 30 };
/** Far from the epoch and a whole second, so that a timestamp in the wrong unit would show. */
const T0 = Date.UTC(2026, 11, 1, 23, 0, 0);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'performance'] });
  vi.setSystemTime(T0);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** The progress gauges' names of each naming. */
const NAMINGS: { naming: Naming; prefix: string; names: Record<string, string> }[] = [
  {
    naming: 'otel',
    prefix: '',
    names: {
      active: 'backup.active_runs',
      progress: 'backup.run.progress',
      remaining: 'backup.run.remaining_time',
      lastProgress: 'backup.last_progress.timestamp',
      phase: 'backup.run.phase',
    },
  },
  {
    naming: 'vitess',
    prefix: 'vtbackup_',
    names: {
      active: 'vtbackup_backup_runs_in_progress',
      progress: 'vtbackup_backup_run_progress_ratio',
      remaining: 'vtbackup_backup_run_remaining_seconds',
      lastProgress: 'vtbackup_backup_last_progress_timestamp_seconds',
      phase: 'vtbackup_backup_phase',
    },
  },
];

describe('progress of a run given its expected size', () => {
  for (const { naming, prefix, names } of NAMINGS) {
    it(`${naming} naming: progress, time left at the last minute's throughput, last progress, active runs`, async ({
      harness,
    }) => {
      const stats = createBackupStats({ meterProvider: harness.provider, naming, metricPrefix: prefix, ...NOT_NOW });
      const source = stats.backup.scope({ ...RUN, operation: Operation.SourceRead });
      const compressor = stats.backup.scope({ ...RUN, operation: Operation.CompressorWrite });
      // Recorded before the run starts and not flushed yet: not the run's progress.
      source.timedIncrementBytes(50, 1);
      const run = stats.backup.scope(RUN).startRun({ expectedBytes: 10_000 });
      const read = async () => {
        const values = numbers(await harness.collect());
        return {
          active: values.get(runKey(names.active as string, RUN)),
          progress: values.get(runKey(names.progress as string, RUN)),
          remaining: values.get(runKey(names.remaining as string, RUN)),
          lastProgress: values.get(runKey(names.lastProgress as string, RUN)),
        };
      };

      // Before anything moved: nothing done, no throughput, the start as the last progress.
      expect(await read()).toEqual({
        active: 1,
        progress: 0,
        remaining: Number.POSITIVE_INFINITY,
        lastProgress: T0 / 1000,
      });

      // Two minutes at 100 B per 10 s (the compressor's bytes do not count), then one at 500 B per 10 s.
      for (let i = 1; i <= 12; i++) {
        vi.advanceTimersByTime(10_000);
        source.timedIncrementBytes(100, 1);
        compressor.timedIncrementBytes(300, 1);
        await read();
      }
      for (let i = 1; i <= 6; i++) {
        vi.advanceTimersByTime(10_000);
        source.timedIncrementBytes(500, 1);
        await read();
      }
      // 4200 B done at 180 s. The last minute moved 3000 B, 50 B/s: 5800 B left take 116 s (the run's average,
      // 23.3 B/s, would say 249 s).
      const moving = await read();
      expect(moving.active).toBe(1);
      expect(moving.progress).toBeCloseTo(0.42, 12);
      expect(moving.remaining).toBeCloseTo(116, 9);
      expect(moving.lastProgress).toBe((T0 + 180_000) / 1000);

      // Stalled: the last progress stays, the time left grows, and once a minute passed with no byte it is +Inf.
      vi.advanceTimersByTime(30_000);
      const stalling = await read();
      expect(stalling.lastProgress).toBe((T0 + 180_000) / 1000);
      // The last minute (150 s to 210 s) moved 1500 B: 25 B/s.
      expect(stalling.remaining).toBeCloseTo(5800 / 25, 9);
      vi.advanceTimersByTime(60_000);
      expect(await read()).toEqual({
        active: 1,
        progress: 0.42,
        remaining: Number.POSITIVE_INFINITY,
        lastProgress: (T0 + 180_000) / 1000,
      });

      // Moving again, then the end: no run in progress, nothing left, the last values kept.
      vi.advanceTimersByTime(10_000);
      source.timedIncrementBytes(800, 1);
      await read();
      run.succeed(5000);
      expect(await read()).toEqual({ active: 0, progress: 0.5, remaining: 0, lastProgress: (T0 + 280_000) / 1000 });
      await stats.shutdown();
    });
  }

  it('the progress operation is chosen by progressOperation; every series of it counts, whatever its labels', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const restore = { ...RUN, operation: Operation.Restore };
    stats.restore.scope(restore).startRun({ expectedBytes: 400, progressOperation: Operation.DestinationWrite });
    stats.restore
      .scope({ component: 'BackupStorage', implementation: 'File', operation: 'Destination:Write' })
      .timedIncrementBytes(100, 1);
    stats.restore
      .scope({ component: 'BackupEngine', implementation: 'Builtin', operation: 'Destination:Write' })
      .timedIncrementBytes(100, 1);
    stats.restore.scope({ ...RUN, operation: Operation.SourceRead }).timedIncrementBytes(1000, 1);
    vi.advanceTimersByTime(4000);
    const values = numbers(await harness.collect());
    expect(values.get(runKey('restore.run.progress', restore))).toBe(0.5);
    // 200 B in 4 s: 200 B left take 4 s.
    expect(values.get(runKey('restore.run.remaining_time', restore))).toBe(4);
    await stats.shutdown();
  });

  it("bytes of its operation recorded before the start, still unflushed, are not a run's progress", async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const write = stats.backup.scope({ ...RUN, operation: Operation.SourceRead });
    // The first record of a series goes at once; the next two wait for a flush.
    write.timedIncrementBytes(1, 1);
    write.timedIncrementBytes(100, 1);
    write.timedIncrementBytes(100, 1);
    stats.backup.scope(RUN).startRun({ expectedBytes: 400 });
    vi.advanceTimersByTime(1000);
    let values = numbers(await harness.collect());
    expect(values.get(runKey('backup.run.progress', RUN))).toBe(0);
    write.timedIncrementBytes(100, 1);
    vi.advanceTimersByTime(1000);
    values = numbers(await harness.collect());
    expect(values.get(runKey('backup.run.progress', RUN))).toBe(0.25);
    await stats.shutdown();
  });

  it('a run expected to move nothing is done; a run past its estimate shows more than 1 and no time left', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const empty = { ...RUN, implementation: 'Empty' };
    const big = { ...RUN, implementation: 'Big' };
    stats.backup.scope(empty).startRun({ expectedBytes: 0 });
    stats.backup.scope(big).startRun({ expectedBytes: 100 });
    stats.backup.scope({ ...RUN, operation: Operation.SourceRead }).timedIncrementBytes(150, 1);
    vi.advanceTimersByTime(1000);
    const values = numbers(await harness.collect());
    expect(values.get(runKey('backup.run.progress', empty))).toBe(1);
    expect(values.get(runKey('backup.run.remaining_time', empty))).toBe(0);
    expect(values.get(runKey('backup.run.progress', big))).toBe(1.5);
    expect(values.get(runKey('backup.run.remaining_time', big))).toBe(0);
    await stats.shutdown();
  });

  it('a run that learns its size later (expectBytes) counts its progress from its start; a bad size is counted', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW, quiet: true });
    const source = stats.backup.scope({ ...RUN, operation: Operation.SourceRead });
    source.timedIncrementBytes(50, 1); // before the start: not the run's
    const run = stats.backup.scope(RUN).startRun();
    source.timedIncrementBytes(200, 1);
    vi.advanceTimersByTime(10_000);
    await harness.collect();
    source.timedIncrementBytes(100, 1); // pending when the size comes
    run.expectBytes(-1);
    run.expectBytes(Number.NaN);
    run.expectBytes(1000);
    run.expectBytes(10); // a size once given stays
    vi.advanceTimersByTime(10_000);
    source.timedIncrementBytes(100, 1);
    const values = numbers(await harness.collect());
    expect(values.get(runKey('backup.run.progress', RUN))).toBe(0.4);
    expect(values.get(runKey('backup.active_runs', RUN))).toBe(1);
    // Since the size came (300 B done then), 100 B in 10 s: 600 B left take 60 s.
    expect(values.get(runKey('backup.run.remaining_time', RUN))).toBe(60);
    expect(values.get(runKey('backup.last_progress.timestamp', RUN))).toBe((T0 + 20_000) / 1000);
    expect(values.get(runKey('backupstats.invalid_measurements', { family: 'backup' }))).toBe(2);
    await stats.shutdown();
  });

  it('a run without an expected size exports no progress gauge, and trackRun passes its own options on', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const plain = stats.backup.scope(RUN).startRun();
    const source = stats.backup.scope({ ...RUN, operation: Operation.SourceRead });
    source.timedIncrementBytes(10, 1);
    vi.advanceTimersByTime(1000);
    let exported = [...numbers(await harness.collect()).keys()];
    const progressKey = (key: string) =>
      (key.startsWith('backup.run.') && !key.startsWith('backup.run.warnings')) || key.startsWith('backup.active_runs');
    expect(exported.filter(progressKey)).toEqual([]);
    plain.succeed();

    const tracked = { ...RUN, implementation: 'Tracked' };
    let seen: Map<string, number> | undefined;
    await trackRun(
      stats.backup.scope(tracked),
      async (run) => {
        run.phase('read');
        source.timedIncrementBytes(25, 1);
        vi.advanceTimersByTime(1000);
        seen = numbers(await harness.collect());
      },
      { expectedBytes: 100 },
    );
    expect(seen?.get(runKey('backup.run.progress', tracked))).toBe(0.25);
    expect(seen?.get(runKey('backup.run.phase', { ...tracked, phase: 'read' }))).toBe(1);
    exported = [...numbers(await harness.collect()).keys()];
    expect(exported).toContain(runKey('backup.active_runs', tracked));
    expect(exported).not.toContain(runKey('backup.active_runs', RUN));
    await stats.shutdown();
  });

  it('flushed every second: samples 3 s apart, a window that straddles a change of pace, a finished run stalled', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const source = stats.backup.scope({ ...RUN, operation: Operation.SourceRead });
    // The series exists before the run, so that every later byte waits for a flush.
    source.timedIncrementBytes(1, 1);
    await harness.collect();
    const run = stats.backup.scope(RUN).startRun({ expectedBytes: 10_000 });
    const remaining = async () =>
      numbers(await harness.collect()).get(runKey('backup.run.remaining_time', RUN)) as number;
    // 10 B/s for 100 s, then 30 B/s, each second's bytes taken by that second's flush.
    let answer = 0;
    for (let second = 1; second <= 130; second++) {
      vi.advanceTimersByTime(1000);
      source.timedIncrementBytes(second <= 100 ? 10 : 30, 1);
      answer = await remaining();
    }
    // A flush under 3.75 s after the sample before the latest replaces the latest, so the samples kept are 3 s
    // apart (0, 3, 6, …) and the last minute (70 s to 130 s) reaches back to the one at 69 s: 690 B done then,
    // 1900 B now, 1210 B in 61 s. 8100 B left take 8100 × 61 / 1210 s.
    expect(answer).toBeCloseTo((8100 * 61) / 1210, 9);

    // Done to the byte at 400 s, then still for over a minute: the window moved nothing, and nothing is left.
    for (let second = 131; second <= 400; second++) {
      vi.advanceTimersByTime(1000);
      source.timedIncrementBytes(30, 1);
      await harness.collect();
    }
    vi.advanceTimersByTime(61_000);
    expect(await remaining()).toBe(0);
    expect(numbers(await harness.collect()).get(runKey('backup.run.progress', RUN))).toBe(1);
    run.succeed();
    await stats.shutdown();
  });
});

describe('phases', () => {
  for (const { naming, prefix, names } of NAMINGS) {
    it(`${naming} naming: the current phase is 1, the earlier ones 0, and none once the run ended`, async ({
      harness,
    }) => {
      const stats = createBackupStats({ meterProvider: harness.provider, naming, metricPrefix: prefix, ...NOT_NOW });
      const run = stats.backup.scope(RUN).startRun();
      const phases = async () => {
        const values = numbers(await harness.collect());
        const of = (phase: string) => values.get(runKey(names.phase as string, { ...RUN, phase }));
        return { restore: of('restore'), upload: of('upload') };
      };
      expect(await phases()).toEqual({ restore: undefined, upload: undefined });
      run.phase('restore');
      expect(await phases()).toEqual({ restore: 1, upload: undefined });
      run.phase('upload');
      expect(await phases()).toEqual({ restore: 0, upload: 1 });
      run.fail();
      expect(await phases()).toEqual({ restore: 0, upload: 0 });
      // After its end a run names no phase any more.
      run.phase('restore');
      expect(await phases()).toEqual({ restore: 0, upload: 0 });
      await stats.shutdown();
    });
  }

  it('a name that is not a string of 1 to 64 characters, or a 17th phase, is dropped and counted; a known one is not', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW, quiet: true });
    const run = stats.backup.scope(RUN).startRun();
    for (const bad of ['', 'x'.repeat(65), 42, undefined]) run.phase(bad as string);
    for (let i = 1; i <= 17; i++) run.phase(`p${i}`);
    const values = numbers(await harness.collect());
    expect(values.get(runKey('backupstats.invalid_measurements', { family: 'backup' }))).toBe(5);
    expect(values.get(runKey('backup.run.phase', { ...RUN, phase: 'p16' }))).toBe(1);
    expect(values.has(runKey('backup.run.phase', { ...RUN, phase: 'p17' }))).toBe(false);
    // At the limit, a phase already known is entered again, and not counted as dropped.
    run.phase('p3');
    const again = numbers(await harness.collect());
    expect(again.get(runKey('backup.run.phase', { ...RUN, phase: 'p3' }))).toBe(1);
    expect(again.get(runKey('backup.run.phase', { ...RUN, phase: 'p16' }))).toBe(0);
    expect(again.get(runKey('backupstats.invalid_measurements', { family: 'backup' }))).toBe(5);
    await stats.shutdown();
  });
});

describe('no cost on the record path', () => {
  it('records during a run with an expected size read no clock: progress is read at the flushes', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const source = stats.backup.scope({ ...RUN, operation: Operation.SourceRead });
    const run = stats.backup.scope(RUN).startRun({ expectedBytes: 1_000_000 });
    // A series' first record of an interval goes to the instruments at once (and the timeline hears of it, with
    // the time): that is the stats' own, with or without a run. The records after it are what this is about.
    source.timedIncrementBytes(64, 0);
    const date = vi.spyOn(Date, 'now');
    const perf = vi.spyOn(performance, 'now');
    for (let i = 1; i < 10_000; i++) source.timedIncrementBytes(64, 0);
    expect(date).not.toHaveBeenCalled();
    expect(perf).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1000);
    const values = numbers(await harness.collect());
    expect(values.get(runKey('backup.run.progress', RUN))).toBe(0.64);
    run.succeed();
    await stats.shutdown();
  });
});
