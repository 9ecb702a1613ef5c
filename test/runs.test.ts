// Runs: one backup or restore run from start to end, recorded by outcome (with a bounded reason), duration,
// end time of the last success and failure, and bytes of the last success, through a real MeterProvider.
import { metrics } from '@opentelemetry/api';
import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  type IAttributesProcessor,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type ResourceMetrics,
  type ViewOptions,
} from '@opentelemetry/sdk-metrics';
import {
  createBackupStats,
  createNoopBackupStats,
  createRecordingStats,
  type Naming,
  noopStats,
  Operation,
  RUN_DURATION_BOUNDARIES,
  RunFailure,
  type RunFailureReason,
  trackRun,
} from 'backupstats';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { captureDiag } from './support/diag-capture.js';

const LABELS = { component: 'BackupEngine', implementation: 'Builtin', operation: Operation.Backup };
const FAILURE_REASONS = ['interrupted', 'timeout', 'source', 'destination', 'corrupted', 'configuration', '_OTHER'];

/** A real provider whose exports are collected on demand. */
function realProvider(views: ViewOptions[] = []): { provider: MeterProvider; collect(): Promise<ResourceMetrics> } {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 2 ** 30 });
  const provider = new MeterProvider({ readers: [reader], views });
  onTestFinished(() => provider.shutdown());
  return {
    provider,
    async collect() {
      exporter.reset();
      await reader.forceFlush();
      return exporter.getMetrics().at(-1) as ResourceMetrics;
    },
  };
}

/** `name{k=v,...}` (attributes sorted) → value, for every number data point of an export. */
function numbers(exported: ResourceMetrics | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const point of dataPoints(exported)) {
    if (typeof point.value === 'number') out.set(point.key, point.value);
  }
  return out;
}

/** `name{k=v,...}` → histogram, for every histogram data point of an export. */
function histograms(exported: ResourceMetrics): Map<string, Histogram> {
  const out = new Map<string, Histogram>();
  for (const point of dataPoints(exported)) {
    if (typeof point.value === 'object') out.set(point.key, point.value as Histogram);
  }
  return out;
}

function dataPoints(exported: ResourceMetrics | undefined): { key: string; value: DataPoint<unknown>['value'] }[] {
  // A reader exports nothing when there is no data point at all.
  return (exported?.scopeMetrics ?? []).flatMap((scope) =>
    scope.metrics.flatMap((metric) =>
      (metric.dataPoints as DataPoint<unknown>[]).map((point) => ({
        key: `${metric.descriptor.name}{${Object.entries(point.attributes)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(',')}}`,
        value: point.value,
      })),
    ),
  );
}

const LABEL_TEXT = 'component=BackupEngine,implementation=Builtin,operation=Backup';
const failureKey = (name: string, reasonKey: string, reason: string) =>
  `${name}{${[...LABEL_TEXT.split(','), 'outcome=failure', `${reasonKey}=${reason}`].sort().join(',')}}`;

afterEach(() => {
  vi.restoreAllMocks();
  metrics.disable();
});

describe('runs through a real MeterProvider', () => {
  const namings: { naming: Naming; prefix: string; names: Record<string, string>; reasonKey: string }[] = [
    {
      naming: 'otel',
      prefix: '',
      names: {
        runs: 'backup.runs',
        duration: 'backup.run.duration',
        successTime: 'backup.last_success.timestamp',
        failureTime: 'backup.last_failure.timestamp',
        bytes: 'backup.last_success.bytes',
      },
      reasonKey: 'error.type',
    },
    {
      naming: 'vitess',
      prefix: 'vtbackup_',
      names: {
        runs: 'vtbackup_backup_run_count',
        duration: 'vtbackup_backup_run_duration_seconds',
        successTime: 'vtbackup_backup_last_success_timestamp_seconds',
        failureTime: 'vtbackup_backup_last_failure_timestamp_seconds',
        bytes: 'vtbackup_backup_last_success_bytes',
      },
      reasonKey: 'reason',
    },
  ];
  for (const { naming, prefix, names, reasonKey } of namings) {
    it(`${naming} naming: runs by outcome and reason, durations, the last success's end time and bytes, the last failure's end time`, async () => {
      const { provider, collect } = realProvider();
      const stats = createBackupStats({ meterProvider: provider, naming, metricPrefix: prefix, flushIntervalMillis: 2 ** 30 });
      const handle = stats.backup.scope(LABELS);
      const before = Date.now() / 1000;
      await trackRun(handle, () => ({ bytes: 4096 }), { bytes: (result) => result.bytes });
      await trackRun(handle, async () => 'done', { bytes: 1000 });
      const failures: RunFailureReason[] = [RunFailure.Source, RunFailure.Source, RunFailure.Corrupted];
      for (const reason of failures) {
        await expect(trackRun(handle, () => Promise.reject(new Error(reason)), { reason: () => reason })).rejects.toThrow(reason);
      }
      const after = Date.now() / 1000;

      const exported = await collect();
      const values = numbers(exported);
      expect(values.get(`${names.runs}{${LABEL_TEXT},outcome=success}`)).toBe(2);
      expect(Object.fromEntries(FAILURE_REASONS.map((reason) => [reason, values.get(failureKey(names.runs as string, reasonKey, reason))]))).toEqual({
        interrupted: 0,
        timeout: 0,
        source: 2,
        destination: 0,
        corrupted: 1,
        configuration: 0,
        _OTHER: 0,
      });
      const successTime = values.get(`${names.successTime}{${LABEL_TEXT}}`) as number;
      const failureTime = values.get(`${names.failureTime}{${LABEL_TEXT}}`) as number;
      expect(successTime).toBeGreaterThanOrEqual(before - 0.001);
      expect(failureTime).toBeGreaterThanOrEqual(successTime);
      expect(failureTime).toBeLessThanOrEqual(after + 0.001);
      expect(values.get(`${names.bytes}{${LABEL_TEXT}}`)).toBe(1000);

      const durations = histograms(exported);
      const success = durations.get(`${names.duration}{${LABEL_TEXT},outcome=success}`);
      const failure = durations.get(`${names.duration}{${LABEL_TEXT},outcome=failure}`);
      expect(success?.count).toBe(2);
      expect(failure?.count).toBe(3);
      // The boundaries are the library's advice, taken by the SDK.
      expect(success?.buckets.boundaries).toEqual(RUN_DURATION_BOUNDARIES);
      const unit = exported.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === names.duration)?.descriptor.unit;
      expect(unit).toBe('s');
      await stats.shutdown();
    });
  }

  it('every run series of a handle exists at 0 from the first collection after its first run started', async () => {
    const { provider, collect } = realProvider();
    const stats = createBackupStats({ meterProvider: provider, flushIntervalMillis: 2 ** 30 });
    const run = stats.backup.scope(LABELS).startRun();
    const values = numbers(await collect());
    expect(values.get(`backup.runs{${LABEL_TEXT},outcome=success}`)).toBe(0);
    for (const reason of FAILURE_REASONS) expect(values.get(failureKey('backup.runs', 'error.type', reason))).toBe(0);
    // No run ended yet: no gauge has a value.
    expect([...values.keys()].filter((key) => key.includes('last_'))).toEqual([]);
    run.succeed();
    expect(numbers(await collect()).get(`backup.runs{${LABEL_TEXT},outcome=success}`)).toBe(1);
    await stats.shutdown();
  });

  it('a run reads the clock when it starts and when it ends, and nowhere else', async () => {
    const { provider } = realProvider();
    const stats = createBackupStats({ meterProvider: provider, flushIntervalMillis: 2 ** 30 });
    const handle = stats.backup.scope(LABELS);
    // The SDK reads the clock itself when a flush adds to its instruments: only the run's own calls are counted.
    const now = vi.spyOn(performance, 'now');
    const wall = vi.spyOn(Date, 'now');
    const reads = () => [now.mock.calls.length, wall.mock.calls.length];
    const run = handle.startRun();
    expect(reads()).toEqual([1, 0]);
    handle.timedIncrementBytes(10, 1);
    expect(reads()).toEqual([1, 0]);
    run.succeed(10);
    // The duration, and the end time for the gauge.
    expect(reads()).toEqual([2, 1]);
    run.fail(RunFailure.Source);
    handle.startRun().fail(RunFailure.Source);
    expect(reads()).toEqual([4, 2]);
    await stats.shutdown();
  });

  it('only the first end of a run counts', async () => {
    const { provider, collect } = realProvider();
    const stats = createBackupStats({ meterProvider: provider, flushIntervalMillis: 2 ** 30 });
    const run = stats.restore.scope(LABELS).startRun();
    run.fail(RunFailure.Timeout);
    run.succeed(100);
    run.fail(RunFailure.Source);
    const values = numbers(await collect());
    expect(values.get(`restore.runs{${LABEL_TEXT},outcome=success}`)).toBe(0);
    expect(values.get(failureKey('restore.runs', 'error.type', 'timeout'))).toBe(1);
    expect(values.get(failureKey('restore.runs', 'error.type', 'source'))).toBe(0);
    expect(values.has(`restore.last_success.bytes{${LABEL_TEXT}}`)).toBe(false);
    await stats.shutdown();
  });

  it('a reason outside RunFailure, or none, is _OTHER (said once through diag); a throwing classifier too', async () => {
    const diagnostics = captureDiag();
    onTestFinished(() => diagnostics.restore());
    const { provider, collect } = realProvider();
    const stats = createBackupStats({ meterProvider: provider, flushIntervalMillis: 2 ** 30 });
    const handle = stats.backup.scope(LABELS);
    handle.startRun().fail('disk on fire' as RunFailureReason);
    handle.startRun().fail(42 as unknown as RunFailureReason);
    handle.startRun().fail();
    await expect(
      trackRun(handle, () => Promise.reject(new Error('boom')), {
        reason: () => {
          throw new Error('classifier bug');
        },
      }),
    ).rejects.toThrow('boom');
    await expect(trackRun(handle, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const values = numbers(await collect());
    expect(values.get(failureKey('backup.runs', 'error.type', '_OTHER'))).toBe(5);
    expect(diagnostics.messages.filter((m) => m.includes('not one of RunFailure'))).toEqual([expect.stringContaining('"disk on fire"')]);
    await stats.shutdown();
  });

  it('bytes that are not a count are dropped and counted as invalid; the success still counts', async () => {
    const diagnostics = captureDiag();
    onTestFinished(() => diagnostics.restore());
    const { provider, collect } = realProvider();
    const stats = createBackupStats({ meterProvider: provider, flushIntervalMillis: 2 ** 30 });
    const handle = stats.backup.scope(LABELS);
    handle.startRun().succeed(500);
    handle.startRun().succeed(Number.NaN);
    handle.startRun().succeed(-1);
    const values = numbers(await collect());
    expect(values.get(`backup.runs{${LABEL_TEXT},outcome=success}`)).toBe(3);
    expect(values.has(`backup.last_success.bytes{${LABEL_TEXT}}`)).toBe(false);
    expect(values.get('backupstats.invalid_measurements{family=backup}')).toBe(2);
    await stats.shutdown();
  });

  it('trackRun: a synchronous throw is a failure; a throwing bytes function ends the run as a success without bytes', async () => {
    const { provider, collect } = realProvider();
    const stats = createBackupStats({ meterProvider: provider, flushIntervalMillis: 2 ** 30 });
    const handle = stats.backup.scope(LABELS);
    await expect(
      trackRun(
        handle,
        () => {
          throw new Error('sync');
        },
        { reason: () => RunFailure.Configuration },
      ),
    ).rejects.toThrow('sync');
    await expect(
      trackRun(handle, () => 1, {
        bytes: () => {
          throw new Error('bytes bug');
        },
      }),
    ).rejects.toThrow('bytes bug');
    const values = numbers(await collect());
    expect(values.get(failureKey('backup.runs', 'error.type', 'configuration'))).toBe(1);
    expect(values.get(`backup.runs{${LABEL_TEXT},outcome=success}`)).toBe(1);
    expect(values.has(`backup.last_success.bytes{${LABEL_TEXT}}`)).toBe(false);
    await stats.shutdown();
  });
});

describe('runs at the end of the job', () => {
  it('shutdown ends the runs in progress as interrupted failures, and the provider exports them after it', async () => {
    const { provider, collect } = realProvider();
    const stats = createBackupStats({ meterProvider: provider, flushIntervalMillis: 2 ** 30 });
    const done = stats.backup.scope(LABELS).startRun();
    done.succeed(123);
    const inProgress = stats.backup.scope(LABELS).startRun();
    const other = stats.restore.startRun();
    await stats.shutdown();
    // Ended after the shutdown: ignored, the shutdown already ended them.
    inProgress.succeed(1);
    other.fail(RunFailure.Source);

    const exported = await collect();
    const values = numbers(exported);
    expect(values.get(`backup.runs{${LABEL_TEXT},outcome=success}`)).toBe(1);
    expect(values.get(failureKey('backup.runs', 'error.type', 'interrupted'))).toBe(1);
    expect(values.get('restore.runs{component=-,error.type=interrupted,implementation=-,operation=-,outcome=failure}')).toBe(1);
    expect(values.get('restore.runs{component=-,error.type=source,implementation=-,operation=-,outcome=failure}')).toBe(0);
    // The gauges keep their last values in exports after the shutdown.
    expect(values.get(`backup.last_success.bytes{${LABEL_TEXT}}`)).toBe(123);
    expect(values.get('restore.last_failure.timestamp{component=-,implementation=-,operation=-}')).toBeGreaterThan(0);
    expect(histograms(exported).get(`backup.run.duration{${LABEL_TEXT},outcome=failure}`)?.count).toBe(1);
  });

  it('a run started after shutdown records nothing and is reported once', async () => {
    const diagnostics = captureDiag();
    onTestFinished(() => diagnostics.restore());
    const { provider, collect } = realProvider();
    const stats = createBackupStats({ meterProvider: provider, flushIntervalMillis: 2 ** 30 });
    await stats.shutdown();
    const run = stats.backup.startRun();
    run.succeed(5);
    expect([...numbers(await collect()).keys()].filter((key) => key.startsWith('backup.'))).toEqual([]);
    expect(diagnostics.messages.filter((m) => m.includes('after shutdown()'))).toHaveLength(1);
  });

  it('runs ended before a global provider is registered are exported once it is', async () => {
    const stats = createBackupStats({ flushIntervalMillis: 2 ** 30 });
    onTestFinished(() => stats.shutdown());
    stats.backup.scope(LABELS).startRun().succeed(77);
    const { provider, collect } = realProvider();
    metrics.setGlobalMeterProvider(provider);
    stats.flush();
    const values = numbers(await collect());
    expect(values.get(`backup.runs{${LABEL_TEXT},outcome=success}`)).toBe(1);
    expect(values.get(`backup.last_success.bytes{${LABEL_TEXT}}`)).toBe(77);
  });

  it('an instrument that throws during a flush: the retry adds each run exactly once', async () => {
    const diagnostics = captureDiag();
    onTestFinished(() => diagnostics.restore());
    let left = 1;
    const processor: IAttributesProcessor = {
      process(incoming) {
        if (left > 0 && incoming.outcome === 'failure') {
          left -= 1;
          throw new Error('processor failed');
        }
        return incoming;
      },
    };
    const { provider, collect } = realProvider([{ instrumentName: 'backup.runs', attributesProcessors: [processor] }]);
    const stats = createBackupStats({ meterProvider: provider, flushIntervalMillis: 2 ** 30 });
    const handle = stats.backup.scope(LABELS);
    handle.startRun().succeed();
    handle.startRun().fail(RunFailure.Source);
    expect(() => stats.flush()).toThrow('processor failed');
    stats.flush();
    const values = numbers(await collect());
    expect(values.get(`backup.runs{${LABEL_TEXT},outcome=success}`)).toBe(1);
    expect(values.get(failureKey('backup.runs', 'error.type', 'source'))).toBe(1);
    expect(histograms(await collect()).get(`backup.run.duration{${LABEL_TEXT},outcome=failure}`)?.count).toBe(1);
    await stats.shutdown();
  });
});

describe('runs on every kind of handle', () => {
  it('past maxScopes, a run started from an overflow handle goes to the overflow series', async () => {
    const { provider, collect } = realProvider();
    const stats = createBackupStats({ meterProvider: provider, maxScopes: 3, flushIntervalMillis: 2 ** 30 });
    stats.backup.scope({ operation: 'kept' });
    const overflowing = stats.backup.scope({ operation: 'one too many' });
    overflowing.startRun().succeed(9);
    overflowing.scope({ component: 'C' }).startRun().fail(RunFailure.Timeout);
    const values = numbers(await collect());
    expect(values.get('backup.runs{otel.metric.overflow=true,outcome=success}')).toBe(1);
    expect(values.get('backup.runs{error.type=timeout,otel.metric.overflow=true,outcome=failure}')).toBe(1);
    expect(values.get('backup.last_success.bytes{otel.metric.overflow=true}')).toBe(9);
    await stats.shutdown();
  });

  it('no-op stats start runs that record nothing', async () => {
    const run = noopStats.startRun();
    expect(() => {
      run.succeed(1);
      run.fail(RunFailure.Source);
    }).not.toThrow();
    await expect(trackRun(createNoopBackupStats().backup, () => 5)).resolves.toBe(5);
  });

  it('recording stats keep every ended run with its labels, outcome, reason, duration and bytes', async () => {
    const stats = createRecordingStats();
    const engine = stats.scope({ component: 'BackupEngine', implementation: 'Builtin' });
    await trackRun(engine.scope({ operation: Operation.Backup }), () => ({ size: 10 }), { bytes: (r) => r.size });
    await expect(trackRun(engine, () => Promise.reject(new Error('x')), { reason: () => RunFailure.Destination })).rejects.toThrow('x');
    const open = stats.startRun();
    stats.startRun().fail('nonsense' as RunFailureReason);
    expect(stats.runs).toEqual([
      { labels: LABELS, outcome: 'success', reason: undefined, durationMs: expect.any(Number), bytes: 10 },
      {
        labels: { component: 'BackupEngine', implementation: 'Builtin', operation: '-' },
        outcome: 'failure',
        reason: 'destination',
        durationMs: expect.any(Number),
        bytes: undefined,
      },
      { labels: { component: '-', implementation: '-', operation: '-' }, outcome: 'failure', reason: '_OTHER', durationMs: expect.any(Number), bytes: undefined },
    ]);
    expect(engine.runs).toBe(stats.runs);
    open.succeed();
    expect(stats.runs).toHaveLength(4);
  });
});
