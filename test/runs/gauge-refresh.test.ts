// The synchronous run and progress gauges are set again in every collection's drain (and at shutdown): a delta
// reader then has a point of each series in every interval, starting at the previous collection, as an observable
// gauge would. A gauge that throws while it is set is reported through diag, never thrown, and keeps the value it was
// last given: the one set when its run started, entered a phase or ended. Through a real MeterProvider on a fake
// clock (Date and performance); a view's attributes processor makes an instrument throw.
import { metrics } from '@opentelemetry/api';
import { AggregationTemporality, type IAttributesProcessor, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { createBackupStats, Operation, RunFailure } from 'backupstats';
import { afterEach, describe, expect, onTestFinished, vi } from 'vitest';
import { it } from '../support/fixtures.js';
import { createHarness, numbers } from '../support/harness.js';
import { runKey } from '../support/series-key.js';
import { at, pointsByRun, useFakeWallClock } from '../support/wall-clock.js';

const RUN = { component: 'BackupEngine', implementation: 'Builtin', operation: Operation.Backup };
const SOURCE = { ...RUN, operation: Operation.SourceRead };
const ROOT = { component: '-', implementation: '-', operation: '-' };
const NOT_NOW = { flushIntervalMillis: 2 ** 30 };
const FLUSH_FAILED =
  'backupstats: an OpenTelemetry instrument threw while measurements were added to it; what it did not take stays pending and is retried on the next flush Error: gauge failed';

useFakeWallClock();
afterEach(() => {
  metrics.disable();
});

/** runKey → [value, start of the point in Unix seconds] of every sum and gauge point. */
const pointsOf = (exported: ResourceMetrics): Map<string, [number, number]> =>
  new Map(
    [...pointsByRun(exported)].flatMap(([key, { value, start }]) =>
      typeof value === 'number' ? [[key, [value, start]] as const] : [],
    ),
  );

/** A harness whose instruments `names` throw while `failing.on` is true. */
function failingHarness(names: readonly string[]) {
  const failing = { on: false };
  const processor: IAttributesProcessor = {
    process(incoming) {
      if (failing.on) throw new Error('gauge failed');
      return incoming;
    },
  };
  const harness = createHarness(
    undefined,
    names.map((instrumentName) => ({ instrumentName, attributesProcessors: [processor] })),
  );
  onTestFinished(() => harness.shutdown());
  return { harness, failing };
}

describe('a delta reader', () => {
  it('has a point of every run and progress series in every interval, from the previous collection', async ({
    diagnostics,
  }) => {
    const harness = createHarness([AggregationTemporality.DELTA]);
    onTestFinished(() => harness.shutdown());
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const source = stats.backup.scope(SOURCE);
    const run = stats.backup.scope(RUN).startRun({ expectedBytes: 1000 });
    run.phase('read');
    stats.backup.startRun().succeed(300);
    stats.backup.startRun().fail(RunFailure.Source);
    vi.advanceTimersByTime(10_000);
    source.timedIncrementBytes(100, 1);
    const first = pointsOf(await harness.collect());
    expect(first.get(runKey('backup.last_success.bytes', ROOT))).toEqual([300, at(0)]);
    expect(first.get(runKey('backup.run.progress', RUN))).toEqual([0.1, at(0)]);

    // Nothing happens in the second interval: every series is there all the same, its point from the first
    // collection on.
    vi.advanceTimersByTime(10_000);
    const second = pointsOf(await harness.collect());
    expect(
      Object.fromEntries(
        [
          runKey('backup.last_success.timestamp', ROOT),
          runKey('backup.last_failure.timestamp', ROOT),
          runKey('backup.last_success.bytes', ROOT),
          runKey('backup.active_runs', RUN),
          runKey('backup.run.progress', RUN),
          runKey('backup.run.remaining_time', RUN),
          runKey('backup.last_progress.timestamp', RUN),
          runKey('backup.run.phase', { ...RUN, phase: 'read' }),
        ].map((key) => [key, second.get(key)]),
      ),
    ).toEqual({
      [runKey('backup.last_success.timestamp', ROOT)]: [at(0), at(10)],
      [runKey('backup.last_failure.timestamp', ROOT)]: [at(0), at(10)],
      [runKey('backup.last_success.bytes', ROOT)]: [300, at(10)],
      [runKey('backup.active_runs', RUN)]: [1, at(10)],
      [runKey('backup.run.progress', RUN)]: [0.1, at(10)],
      // 100 B in the last 20 s: 900 B left take 180 s.
      [runKey('backup.run.remaining_time', RUN)]: [180, at(10)],
      [runKey('backup.last_progress.timestamp', RUN)]: [at(10), at(10)],
      [runKey('backup.run.phase', { ...RUN, phase: 'read' })]: [1, at(10)],
    });
    run.succeed();
    await stats.shutdown();
    expect(diagnostics.messages).toEqual([]);
  });

  it('keeps showing the last run given a size after a later run on its handle names a phase', async () => {
    const harness = createHarness([AggregationTemporality.DELTA]);
    onTestFinished(() => harness.shutdown());
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const handle = stats.backup.scope(RUN);
    const sized = handle.startRun({ expectedBytes: 200 });
    stats.backup.scope(SOURCE).timedIncrementBytes(50, 1);
    vi.advanceTimersByTime(10_000);
    sized.succeed();
    await harness.collect();
    const next = handle.startRun();
    next.phase('verify');
    vi.advanceTimersByTime(10_000);
    const values = numbers(await harness.collect());
    expect(values.get(runKey('backup.run.progress', RUN))).toBe(0.25);
    expect(values.get(runKey('backup.run.remaining_time', RUN))).toBe(0);
    expect(values.get(runKey('backup.active_runs', RUN))).toBe(0);
    expect(values.get(runKey('backup.run.phase', { ...RUN, phase: 'verify' }))).toBe(1);
    next.succeed();
    await stats.shutdown();
  });
  it('carries every gauge into the export after the shutdown', async () => {
    const harness = createHarness([AggregationTemporality.DELTA]);
    onTestFinished(() => harness.shutdown());
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    stats.backup.startRun().succeed(300);
    stats.backup.scope(RUN).startRun({ expectedBytes: 1000 }).phase('read');
    await harness.collect();
    vi.advanceTimersByTime(10_000);
    // The run in progress ends as interrupted; the last success, of the first interval, is set again.
    await stats.shutdown();
    const values = numbers(await harness.collect());
    expect(values.get(runKey('backup.last_success.bytes', ROOT))).toBe(300);
    expect(values.get(runKey('backup.last_success.timestamp', ROOT))).toBe(at(0));
    expect(values.get(runKey('backup.last_failure.timestamp', RUN))).toBe(at(10));
    expect(values.get(runKey('backup.active_runs', RUN))).toBe(0);
    expect(values.get(runKey('backup.run.remaining_time', RUN))).toBe(0);
    expect(values.get(runKey('backup.run.phase', { ...RUN, phase: 'read' }))).toBe(0);
  });
});

describe('a gauge that throws while it is set', () => {
  it('a run gauge, at a collection: said through diag, the collection goes on with the progress gauges', async ({
    diagnostics,
  }) => {
    const { harness, failing } = failingHarness(['backup.last_success.bytes']);
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    stats.backup.startRun().succeed(300);
    const run = stats.backup.scope(RUN).startRun({ expectedBytes: 1000 });
    expect(diagnostics.messages).toEqual([]);
    failing.on = true;
    stats.backup.scope(SOURCE).timedIncrementBytes(100, 1);
    vi.advanceTimersByTime(10_000);
    const values = numbers(await harness.collect());
    expect(diagnostics.messages).toEqual([FLUSH_FAILED]);
    expect(values.get(runKey('backup.last_success.bytes', ROOT))).toBe(300);
    expect(values.get(runKey('backup.run.progress', RUN))).toBe(0.1);
    failing.on = false;
    run.succeed();
    await stats.shutdown();
  });

  it('a progress gauge, at a collection: said through diag; it keeps what its run set at its start, phase and end', async ({
    diagnostics,
  }) => {
    const { harness, failing } = failingHarness(['backup.active_runs']);
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const source = stats.backup.scope(SOURCE);
    const run = stats.backup.scope(RUN).startRun({ expectedBytes: 1000 });
    const read = async () => {
      failing.on = true;
      const values = numbers(await harness.collect());
      failing.on = false;
      return {
        active: values.get(runKey('backup.active_runs', RUN)),
        progress: values.get(runKey('backup.run.progress', RUN)),
        remaining: values.get(runKey('backup.run.remaining_time', RUN)),
        lastProgress: values.get(runKey('backup.last_progress.timestamp', RUN)),
        upload: values.get(runKey('backup.run.phase', { ...RUN, phase: 'upload' })),
      };
    };
    vi.advanceTimersByTime(10_000);
    source.timedIncrementBytes(250, 1);
    // The collection sets no progress gauge of the handle: what the start set, nothing moved yet.
    expect(await read()).toEqual({
      active: 1,
      progress: 0,
      remaining: Number.POSITIVE_INFINITY,
      lastProgress: at(0),
      upload: undefined,
    });
    // The phase sets them where the run stands: 250 B in 10 s, 750 B left take 30 s.
    run.phase('upload');
    vi.advanceTimersByTime(10_000);
    expect(await read()).toEqual({ active: 1, progress: 0.25, remaining: 30, lastProgress: at(10), upload: 1 });
    // The end sets them for the last time: no run in progress, no time left, no current phase.
    run.succeed();
    expect(await read()).toEqual({ active: 0, progress: 0.25, remaining: 0, lastProgress: at(10), upload: 0 });
    // Each collection reported it again: a flush that succeeded came between.
    expect(diagnostics.messages).toEqual([FLUSH_FAILED, FLUSH_FAILED, FLUSH_FAILED]);
    await stats.shutdown();
  });

  it('a progress gauge, when a run starts following its progress or enters a phase: said, never thrown', async ({
    diagnostics,
  }) => {
    const { harness, failing } = failingHarness(['backup.run.phase']);
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    failing.on = true;
    const run = stats.backup.scope(RUN).startRun();
    expect(() => run.phase('read')).not.toThrow();
    expect(diagnostics.messages).toEqual([FLUSH_FAILED]);
    failing.on = false;
    run.phase('write');
    const values = numbers(await harness.collect());
    expect(values.get(runKey('backup.run.phase', { ...RUN, phase: 'read' }))).toBe(0);
    expect(values.get(runKey('backup.run.phase', { ...RUN, phase: 'write' }))).toBe(1);
    run.succeed();
    await stats.shutdown();
  });
});

describe('stats that never found a provider', () => {
  it('end a run whose progress they followed at shutdown, and say it was never exported', async ({ diagnostics }) => {
    const stats = createBackupStats(NOT_NOW);
    const run = stats.backup.scope(RUN).startRun({ expectedBytes: 100 });
    run.phase('read');
    await expect(stats.shutdown()).resolves.toBeUndefined();
    expect(diagnostics.messages).toEqual([
      'backupstats: shutdown() before any global MeterProvider was registered: 0 operations and 1 runs recorded were never exported',
    ]);
  });
});
