// Runs: one backup or restore run from start to end, recorded by outcome (with a bounded reason), duration, end
// time of the last success and failure, and bytes of the last success, through a real MeterProvider.
import {
  createBackupStats,
  type Naming,
  Operation,
  RUN_DURATION_BOUNDARIES,
  RunFailure,
  type RunFailureReason,
  trackRun,
} from 'backupstats';
import { afterEach, describe, expect, vi } from 'vitest';
import { it } from '../support/fixtures.js';
import { histograms, numbers } from '../support/harness.js';
import { runKey } from '../support/series-key.js';

const LABELS = { component: 'BackupEngine', implementation: 'Builtin', operation: Operation.Backup };
const FAILURE_REASONS = ['interrupted', 'timeout', 'source', 'destination', 'corrupted', 'configuration', '_OTHER'];
const NOT_NOW = { flushIntervalMillis: 2 ** 30 };

afterEach(() => {
  vi.restoreAllMocks();
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
    it(`${naming} naming: runs by outcome and reason, durations, the last success's end and bytes, the last failure's end`, async ({
      harness,
    }) => {
      const stats = createBackupStats({ meterProvider: harness.provider, naming, metricPrefix: prefix, ...NOT_NOW });
      const handle = stats.backup.scope(LABELS);
      const before = Date.now() / 1000;
      await trackRun(handle, () => ({ bytes: 4096 }), { bytes: (result) => result.bytes });
      await trackRun(handle, async () => 'done', { bytes: 1000 });
      for (const reason of [RunFailure.Source, RunFailure.Source, RunFailure.Corrupted]) {
        await expect(
          trackRun(handle, () => Promise.reject(new Error(reason)), { reason: () => reason }),
        ).rejects.toThrow(reason);
      }
      const after = Date.now() / 1000;

      const exported = await harness.collect();
      const values = numbers(exported);
      const runs = (outcome: string, reason?: string) =>
        values.get(
          runKey(names.runs as string, {
            ...LABELS,
            outcome,
            ...(reason === undefined ? {} : { [reasonKey]: reason }),
          }),
        );
      expect(runs('success')).toBe(2);
      expect(Object.fromEntries(FAILURE_REASONS.map((reason) => [reason, runs('failure', reason)]))).toEqual({
        interrupted: 0,
        timeout: 0,
        source: 2,
        destination: 0,
        corrupted: 1,
        configuration: 0,
        _OTHER: 0,
      });
      const successTime = values.get(runKey(names.successTime as string, LABELS)) as number;
      const failureTime = values.get(runKey(names.failureTime as string, LABELS)) as number;
      expect(successTime).toBeGreaterThanOrEqual(before - 0.001);
      expect(failureTime).toBeGreaterThanOrEqual(successTime);
      expect(failureTime).toBeLessThanOrEqual(after + 0.001);
      expect(values.get(runKey(names.bytes as string, LABELS))).toBe(1000);

      const durations = histograms(exported);
      const success = durations.get(runKey(names.duration as string, { ...LABELS, outcome: 'success' }));
      expect(success?.count).toBe(2);
      expect(durations.get(runKey(names.duration as string, { ...LABELS, outcome: 'failure' }))?.count).toBe(3);
      // The boundaries are the library's advice, taken by the SDK.
      expect(success?.buckets.boundaries).toEqual(RUN_DURATION_BOUNDARIES);
      const unit = exported.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === names.duration)
        ?.descriptor.unit;
      expect(unit).toBe('s');
      await stats.shutdown();
    });
  }

  it('every run series of a handle exists at 0 from the first collection after its first run started', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const run = stats.backup.scope(LABELS).startRun();
    const values = numbers(await harness.collect());
    expect(values.get(runKey('backup.runs', { ...LABELS, outcome: 'success' }))).toBe(0);
    for (const reason of FAILURE_REASONS)
      expect(values.get(runKey('backup.runs', { ...LABELS, outcome: 'failure', 'error.type': reason }))).toBe(0);
    // No run ended yet: no gauge has a value.
    expect([...values.keys()].filter((key) => key.includes('last_'))).toEqual([]);
    run.succeed();
    expect(numbers(await harness.collect()).get(runKey('backup.runs', { ...LABELS, outcome: 'success' }))).toBe(1);
    await stats.shutdown();
  });

  it('a run reads the clock when it starts and when it ends, and nowhere else', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const handle = stats.backup.scope(LABELS);
    // The handle's series and its run series started already: what follows reads the clock for the runs alone.
    handle.timedIncrement(0, 0);
    handle.startRun().succeed();
    stats.flush();
    // performance.now is the runs' duration clock. Date.now is read for the gauges' end time, and by the SDK when
    // an ended run's numbers go to its instruments (at the end, so that their points start there): not counted.
    const now = vi.spyOn(performance, 'now');
    const run = handle.startRun();
    expect(now.mock.calls.length).toBe(1);
    handle.timedIncrementBytes(10, 1);
    expect(now.mock.calls.length).toBe(1);
    run.succeed(10);
    expect(now.mock.calls.length).toBe(2);
    run.fail(RunFailure.Source);
    handle.startRun().fail(RunFailure.Source);
    expect(now.mock.calls.length).toBe(4);
    await stats.shutdown();
  });

  it('only the first end of a run counts', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const run = stats.restore.scope(LABELS).startRun();
    run.fail(RunFailure.Timeout);
    run.succeed(100);
    run.fail(RunFailure.Source);
    const values = numbers(await harness.collect());
    expect(values.get(runKey('restore.runs', { ...LABELS, outcome: 'success' }))).toBe(0);
    expect(values.get(runKey('restore.runs', { ...LABELS, outcome: 'failure', 'error.type': 'timeout' }))).toBe(1);
    expect(values.get(runKey('restore.runs', { ...LABELS, outcome: 'failure', 'error.type': 'source' }))).toBe(0);
    expect(values.has(runKey('restore.last_success.bytes', LABELS))).toBe(false);
    await stats.shutdown();
  });

  it('a reason outside RunFailure, or none, is _OTHER (reported once through diag); so is a throwing classifier', async ({
    harness,
    diagnostics,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const handle = stats.backup.scope(LABELS);
    handle.startRun().fail('disk on fire' as RunFailureReason);
    handle.startRun().fail(42 as unknown as RunFailureReason);
    handle.startRun().fail();
    const broken = () => {
      throw new Error('classifier bug');
    };
    await expect(trackRun(handle, () => Promise.reject(new Error('boom')), { reason: broken })).rejects.toThrow('boom');
    await expect(trackRun(handle, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const values = numbers(await harness.collect());
    expect(values.get(runKey('backup.runs', { ...LABELS, outcome: 'failure', 'error.type': '_OTHER' }))).toBe(5);
    expect(diagnostics.messages.filter((m) => m.includes('not one of RunFailure'))).toEqual([
      expect.stringContaining('"disk on fire"'),
    ]);
    await stats.shutdown();
  });

  it('bytes that are not a count are dropped and counted as invalid; the success still counts', async ({
    harness,
    diagnostics,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const handle = stats.backup.scope(LABELS);
    handle.startRun().succeed(500);
    handle.startRun().succeed(Number.NaN);
    handle.startRun().succeed(-1);
    const values = numbers(await harness.collect());
    expect(values.get(runKey('backup.runs', { ...LABELS, outcome: 'success' }))).toBe(3);
    // A gauge keeps its last value: the bytes of the last success that had a count.
    expect(values.get(runKey('backup.last_success.bytes', LABELS))).toBe(500);
    expect(values.get(runKey('backupstats.invalid_measurements', { family: 'backup' }))).toBe(2);
    expect(diagnostics.messages.filter((m) => m.includes('dropped an invalid backup measurement'))).toHaveLength(1);
    await stats.shutdown();
  });

  it('trackRun: a synchronous throw is a failure; so is a throwing bytes function, with the reason its error gets (the job fails, so must the run)', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const handle = stats.backup.scope(LABELS);
    const throwing = (message: string) => () => {
      throw new Error(message);
    };
    await expect(trackRun(handle, throwing('sync'), { reason: () => RunFailure.Configuration })).rejects.toThrow(
      'sync',
    );
    await expect(trackRun(handle, () => 1, { bytes: throwing('bytes bug') })).rejects.toThrow('bytes bug');
    const reasons: unknown[] = [];
    // As the repro writes it from JavaScript: the result has no size, so reading size.total throws a TypeError.
    const bytes = (r: { files: number; size?: { total: number } }) => (r.size as { total: number }).total;
    const classify = (error: unknown) => {
      reasons.push(error);
      return RunFailure.Corrupted;
    };
    const work = async (): Promise<{ files: number; size?: { total: number } }> => ({ files: 3 });
    await expect(trackRun(handle, work, { bytes, reason: classify })).rejects.toThrow(TypeError);
    expect(reasons).toHaveLength(1);
    const values = numbers(await harness.collect());
    expect(values.get(runKey('backup.runs', { ...LABELS, outcome: 'failure', 'error.type': 'configuration' }))).toBe(1);
    expect(values.get(runKey('backup.runs', { ...LABELS, outcome: 'failure', 'error.type': '_OTHER' }))).toBe(1);
    expect(values.get(runKey('backup.runs', { ...LABELS, outcome: 'failure', 'error.type': 'corrupted' }))).toBe(1);
    expect(values.get(runKey('backup.runs', { ...LABELS, outcome: 'success' })) ?? 0).toBe(0);
    expect(values.has(runKey('backup.last_success.bytes', LABELS))).toBe(false);
    await stats.shutdown();
  });
});
