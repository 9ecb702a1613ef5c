// The run gauges (last success and failure, last bytes) and the progress gauges are synchronous where the Meter has
// createGauge (API 1.9.0 and later), so that a series starts when a run ends, starts following its progress or
// enters a phase, rather than at a collection, whose points start where they end; on an older API they are
// observable gauges, observed at each collection. Through a real MeterProvider on a fake clock (Date and
// performance); a recording wrapper of the provider tells which Meter methods backupstats called, and without
// createGauge it gives Meters as an API before 1.9.0 does.
import { metrics } from '@opentelemetry/api';
import type { ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { createBackupStats, Operation, RunFailure } from 'backupstats';
import { afterEach, describe, expect, onTestFinished, vi } from 'vitest';
import { it } from '../support/fixtures.js';
import { createHarness, numbers } from '../support/harness.js';
import { createRecordingMeterProvider } from '../support/recording-meter.js';
import { runKey } from '../support/series-key.js';
import { at, pointsByRun, useFakeWallClock } from '../support/wall-clock.js';

const RUN = { component: 'BackupEngine', implementation: 'Builtin', operation: Operation.Backup };
const SOURCE = { ...RUN, operation: Operation.SourceRead };
const NOT_NOW = { flushIntervalMillis: 2 ** 30 };

useFakeWallClock();
afterEach(() => {
  metrics.disable();
});

const RUN_GAUGES = [
  'backup.last_success.timestamp',
  'backup.last_failure.timestamp',
  'backup.last_partial.timestamp',
  'backup.last_success.bytes',
  'backup.last_success.stored_bytes',
];
const PROGRESS_GAUGES = [
  'backup.active_runs',
  'backup.run.progress',
  'backup.run.remaining_time',
  'backup.last_progress.timestamp',
  'backup.run.phase',
];
/** `names` of the backup family, as the family `family` names them. */
const familyOf = (family: string, names: readonly string[]) =>
  names.map((name) => name.replace(/^backup\./, `${family}.`));
/** `names` in every family, in the order the families create their instruments. */
const everyFamily = (names: readonly string[]) =>
  ['backup', 'restore', 'verify', 'prune'].flatMap((family) => familyOf(family, names));

/** runKey → the start of the series' point, in Unix seconds. */
const startTimes = (exported: ResourceMetrics): Map<string, number> =>
  new Map([...pointsByRun(exported)].map(([key, { start }]) => [key, start]));

describe('where the Meter has createGauge', () => {
  it('every run and progress gauge is a synchronous one; the only batch callback is the collection hook', async ({
    harness,
    diagnostics,
  }) => {
    const recording = createRecordingMeterProvider(harness.provider);
    const stats = createBackupStats({ meterProvider: recording.provider, ...NOT_NOW });
    const run = stats.backup.scope(RUN).startRun({ expectedBytes: 100 });
    run.phase('read');
    stats.restore.startRun().succeed(1);
    await harness.collect();
    const gauges = [...RUN_GAUGES, ...PROGRESS_GAUGES];
    expect(recording.created.filter((c) => c.method.includes('Gauge'))).toEqual([
      ...['backup', 'restore', 'verify', 'prune'].flatMap((family) =>
        familyOf(family, gauges).map((name) => ({ method: 'createGauge', name })),
      ),
      { method: 'createObservableGauge', name: 'backupstats.collection' },
    ]);
    expect(recording.addedCallbacks).toEqual([['backupstats.collection']]);
    await stats.shutdown();
    expect(recording.removedCallbacks).toEqual([['backupstats.collection']]);
    expect(diagnostics.messages).toEqual([]);
  });

  it('a progress series starts when its run starts following its progress or enters the phase, not at the collection', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const sized = stats.backup.scope(RUN).startRun({ expectedBytes: 1000 });
    vi.advanceTimersByTime(5000);
    const later = { ...RUN, implementation: 'Later' };
    const unsized = stats.backup.scope(later).startRun();
    vi.advanceTimersByTime(5000);
    unsized.expectBytes(400);
    sized.phase('upload');
    vi.advanceTimersByTime(5000);
    const starts = startTimes(await harness.collect());
    const [active, progress, remaining, lastProgress, phase] = PROGRESS_GAUGES as [
      string,
      string,
      string,
      string,
      string,
    ];
    expect([active, progress, remaining, lastProgress].map((name) => starts.get(runKey(name, RUN)))).toEqual([
      at(0),
      at(0),
      at(0),
      at(0),
    ]);
    expect(starts.get(runKey(phase, { ...RUN, phase: 'upload' }))).toBe(at(10));
    expect([active, progress, remaining, lastProgress].map((name) => starts.get(runKey(name, later)))).toEqual([
      at(10),
      at(10),
      at(10),
      at(10),
    ]);
    // A run's gauges start at its end.
    vi.advanceTimersByTime(5000);
    stats.restore.startRun().fail(RunFailure.Source);
    vi.advanceTimersByTime(5000);
    const ended = startTimes(await harness.collect());
    expect(
      ended.get(runKey('restore.last_failure.timestamp', { component: '-', implementation: '-', operation: '-' })),
    ).toBe(at(20));
    sized.succeed();
    unsized.succeed();
    await stats.shutdown();
  });

  it('the progress gauges of a run started before the provider start when the stats find it', async () => {
    const stats = createBackupStats(NOT_NOW);
    onTestFinished(() => stats.shutdown());
    stats.backup.scope(RUN).startRun({ expectedBytes: 100 }).phase('read');
    vi.advanceTimersByTime(5000);
    const global = createHarness();
    onTestFinished(() => global.shutdown());
    metrics.setGlobalMeterProvider(global.provider);
    stats.flush();
    vi.advanceTimersByTime(5000);
    const exported = await global.collect();
    const values = numbers(exported);
    expect(values.get(runKey('backup.active_runs', RUN))).toBe(1);
    expect(values.get(runKey('backup.run.progress', RUN))).toBe(0);
    expect(values.get(runKey('backup.run.phase', { ...RUN, phase: 'read' }))).toBe(1);
    const starts = startTimes(exported);
    expect(starts.get(runKey('backup.active_runs', RUN))).toBe(at(5));
    expect(starts.get(runKey('backup.run.phase', { ...RUN, phase: 'read' }))).toBe(at(5));
  });
});

describe('on an API without createGauge (before 1.9.0)', () => {
  it('the gauges are observable ones, with one batch callback per family for each kind', async ({
    harness,
    diagnostics,
  }) => {
    const recording = createRecordingMeterProvider(harness.provider, { withoutCreateGauge: true });
    const stats = createBackupStats({ meterProvider: recording.provider, ...NOT_NOW });
    stats.backup.scope(RUN).startRun({ expectedBytes: 100 }).succeed(1);
    await harness.collect();
    const gauges = [...RUN_GAUGES, ...PROGRESS_GAUGES];
    expect(recording.created.filter((c) => c.method.includes('Gauge'))).toEqual(
      [...everyFamily(gauges), 'backupstats.collection'].map((name) => ({
        method: 'createObservableGauge',
        name,
      })),
    );
    expect(recording.addedCallbacks).toEqual([
      ...['backup', 'restore', 'verify', 'prune'].flatMap((family) => [
        familyOf(family, RUN_GAUGES),
        familyOf(family, PROGRESS_GAUGES),
      ]),
      ['backupstats.collection'],
    ]);
    await stats.shutdown();
    // The gauges' callbacks stay: the export after the shutdown carries the last values.
    expect(recording.removedCallbacks).toEqual([['backupstats.collection']]);
    expect(diagnostics.messages).toEqual([]);
  });

  it('each collection observes the last runs and where the runs in progress stand', async ({
    harness,
    diagnostics,
  }) => {
    const recording = createRecordingMeterProvider(harness.provider, { withoutCreateGauge: true });
    const stats = createBackupStats({ meterProvider: recording.provider, ...NOT_NOW });
    const source = stats.backup.scope(SOURCE);
    const run = stats.backup.scope(RUN).startRun({ expectedBytes: 1000 });
    run.phase('read');
    const ok = { ...RUN, implementation: 'Ok' };
    const bad = { ...RUN, implementation: 'Bad' };
    const read = async (labels: typeof RUN) => {
      const values = numbers(await harness.collect());
      return {
        active: values.get(runKey('backup.active_runs', labels)),
        progress: values.get(runKey('backup.run.progress', labels)),
        remaining: values.get(runKey('backup.run.remaining_time', labels)),
        lastProgress: values.get(runKey('backup.last_progress.timestamp', labels)),
        read: values.get(runKey('backup.run.phase', { ...labels, phase: 'read' })),
        lastSuccess: values.get(runKey('backup.last_success.timestamp', labels)),
        lastFailure: values.get(runKey('backup.last_failure.timestamp', labels)),
        bytes: values.get(runKey('backup.last_success.bytes', labels)),
        stored: values.get(runKey('backup.last_success.stored_bytes', labels)),
        lastPartial: values.get(runKey('backup.last_partial.timestamp', labels)),
      };
    };
    const none = {
      lastSuccess: undefined,
      lastFailure: undefined,
      bytes: undefined,
      stored: undefined,
      lastPartial: undefined,
    };
    const nothing = { ...none, active: undefined, progress: undefined, remaining: undefined, lastProgress: undefined };
    expect(await read(RUN)).toEqual({
      ...none,
      active: 1,
      progress: 0,
      remaining: Number.POSITIVE_INFINITY,
      lastProgress: at(0),
      read: 1,
    });

    // 250 B in 10 s: 750 B left take 30 s.
    vi.advanceTimersByTime(10_000);
    source.timedIncrementBytes(250, 1);
    stats.backup.scope(ok).startRun().succeed(500, { storedBytes: 200 });
    stats.backup.scope(bad).startRun().fail(RunFailure.Timeout);
    stats.backup.scope(bad).startRun().partial(RunFailure.Source);
    expect(await read(RUN)).toEqual({
      ...none,
      active: 1,
      progress: 0.25,
      remaining: 30,
      lastProgress: at(10),
      read: 1,
    });
    expect(await read(ok)).toEqual({ ...nothing, read: undefined, lastSuccess: at(10), bytes: 500, stored: 200 });
    expect(await read(bad)).toEqual({ ...nothing, read: undefined, lastFailure: at(10), lastPartial: at(10) });

    // 250 B more in 10 s: 500 B in the last 20 s, 500 B left take 20 s.
    vi.advanceTimersByTime(10_000);
    source.timedIncrementBytes(250, 1);
    expect(await read(RUN)).toMatchObject({ progress: 0.5, remaining: 20, lastProgress: at(20) });

    // The end: no run in progress, no time left, no current phase; its last success observed from then on.
    vi.advanceTimersByTime(10_000);
    run.succeed(2000);
    const ended = { ...none, active: 0, progress: 0.5, remaining: 0, lastProgress: at(20), read: 0 };
    expect(await read(RUN)).toEqual({ ...ended, lastSuccess: at(30), bytes: 2000 });
    await stats.shutdown();
    expect(await read(RUN)).toEqual({ ...ended, lastSuccess: at(30), bytes: 2000 });
    expect(diagnostics.messages).toEqual([]);
  });
});
