// A run done in part (Velero's PartiallyFailed) and the warnings of a run, through a real MeterProvider and the
// recording double: counted by outcome and reason, with their own end time, and never moving the last success.
import { createBackupStats, type Naming, Operation, RunFailure, type RunFailureReason, trackRun } from 'backupstats';
import { createRecordingStats } from 'backupstats/testing';
import { describe, expect, vi } from 'vitest';
import { it } from '../support/fixtures.js';
import { numbers } from '../support/harness.js';
import { runKey } from '../support/series-key.js';

const LABELS = { component: 'BackupEngine', implementation: 'Builtin', operation: Operation.Backup };
const NOT_NOW = { flushIntervalMillis: 2 ** 30 };
const REASONS = ['interrupted', 'timeout', 'source', 'destination', 'corrupted', 'configuration', '_OTHER'];

describe('partial runs', () => {
  const namings: { naming: Naming; prefix: string; name: (otel: string, vitess: string) => string; key: string }[] = [
    { naming: 'otel', prefix: '', name: (otel) => `backup.${otel}`, key: 'error.type' },
    { naming: 'vitess', prefix: 'vtbackup_', name: (_otel, vitess) => `vtbackup_backup_${vitess}`, key: 'reason' },
  ];
  for (const { naming, prefix, name, key } of namings) {
    it(`${naming} naming: counted by outcome and reason, with their end time; the last success stays where it was`, async ({
      harness,
    }) => {
      vi.useFakeTimers({ toFake: ['Date'], now: 1_700_000_000_000 });
      const stats = createBackupStats({ meterProvider: harness.provider, naming, metricPrefix: prefix, ...NOT_NOW });
      const handle = stats.backup.scope(LABELS);
      handle.startRun().succeed(100, { storedBytes: 40 });
      vi.setSystemTime(1_700_000_060_000);
      handle.startRun().partial(RunFailure.Source, 90, { storedBytes: 30 });
      vi.setSystemTime(1_700_000_120_000);
      handle.startRun().partial();
      vi.useRealTimers();
      const values = numbers(await harness.collect());
      const runs = (outcome: string, reason?: string) =>
        values.get(
          runKey(name('runs', 'run_count'), { ...LABELS, outcome, ...(reason === undefined ? {} : { [key]: reason }) }),
        );
      expect(runs('success')).toBe(1);
      expect(Object.fromEntries(REASONS.map((reason) => [reason, runs('partial', reason)]))).toEqual({
        interrupted: 0,
        timeout: 0,
        source: 1,
        destination: 0,
        corrupted: 0,
        configuration: 0,
        _OTHER: 1,
      });
      expect(REASONS.map((reason) => runs('failure', reason))).toEqual(REASONS.map(() => 0));
      const gauge = (otel: string, vitess: string) => values.get(runKey(name(otel, vitess), LABELS));
      expect(gauge('last_partial.timestamp', 'last_partial_timestamp_seconds')).toBe(1_700_000_120);
      expect(gauge('last_success.timestamp', 'last_success_timestamp_seconds')).toBe(1_700_000_000);
      expect(gauge('last_success.bytes', 'last_success_bytes')).toBe(100);
      expect(gauge('last_success.stored_bytes', 'last_success_stored_bytes')).toBe(40);
      expect(gauge('last_failure.timestamp', 'last_failure_timestamp_seconds')).toBeUndefined();
      await stats.shutdown();
    });
  }

  it('warnings count by reason on the run series, whatever the outcome; none after the end', async ({
    harness,
    diagnostics,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const handle = stats.backup.scope(LABELS);
    const first = handle.startRun();
    first.warn(RunFailure.Source);
    first.warn(RunFailure.Source);
    first.warn();
    first.succeed();
    first.warn(RunFailure.Source);
    const second = handle.startRun();
    second.warn(RunFailure.Destination);
    second.fail();
    const third = handle.startRun();
    third.warn('vanished' as RunFailureReason);
    third.partial(RunFailure.Source);
    const values = numbers(await harness.collect());
    const warnings = (reason: string) => values.get(runKey('backup.run.warnings', { ...LABELS, 'error.type': reason }));
    expect(Object.fromEntries(REASONS.map((reason) => [reason, warnings(reason)]))).toEqual({
      interrupted: 0,
      timeout: 0,
      source: 2,
      destination: 1,
      corrupted: 0,
      configuration: 0,
      _OTHER: 2,
    });
    expect(diagnostics.messages).toEqual([
      expect.stringContaining('gave the reason "vanished", which is not one of RunFailure'),
    ]);
    await stats.shutdown();
  });

  it('a partial run counts in the duration histogram under outcome partial', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    stats.prune.scope(LABELS).startRun().partial(RunFailure.Destination);
    const exported = await harness.collect();
    const durations = exported.scopeMetrics
      .flatMap((s) => s.metrics)
      .filter((m) => m.descriptor.name === 'prune.run.duration')
      .flatMap((m) => m.dataPoints.map((p) => [p.attributes.outcome, (p.value as { count: number }).count]));
    expect(durations).toEqual([['partial', 1]]);
    await stats.shutdown();
  });

  it('invalid bytes or details of a partial end are dropped and counted; the partial end still counts', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, quiet: true, ...NOT_NOW });
    const handle = stats.verify.scope(LABELS);
    handle.startRun().partial(RunFailure.Corrupted, -1);
    handle.startRun().partial(RunFailure.Corrupted, 1, 'stored' as never);
    handle.startRun().succeed(1, { storedBytes: Number.NaN });
    const values = numbers(await harness.collect());
    expect(values.get(runKey('verify.runs', { ...LABELS, outcome: 'partial', 'error.type': 'corrupted' }))).toBe(2);
    expect(values.get(runKey('backupstats.invalid_measurements', { family: 'verify' }))).toBe(3);
    expect(values.get(runKey('verify.last_success.bytes', LABELS))).toBe(1);
    expect(values.get(runKey('verify.last_success.stored_bytes', LABELS))).toBeUndefined();
    await stats.shutdown();
  });
});

describe('trackRun and partial runs', () => {
  it('ends the run partial when options.partial says so from the result, with its reason and bytes', async () => {
    const stats = createRecordingStats();
    const skipped = (result: { skipped: number }) => (result.skipped > 0 ? RunFailure.Source : false);
    await trackRun(stats, () => ({ skipped: 2, read: 10, stored: 4 }), {
      partial: skipped,
      bytes: (r) => r.read,
      storedBytes: (r) => r.stored,
    });
    await trackRun(stats, () => ({ skipped: 0, read: 5, stored: 5 }), { partial: skipped, bytes: (r) => r.read });
    await trackRun(stats, () => 'done', { partial: () => true });
    expect(stats.runs.map(({ outcome, reason, bytes, storedBytes }) => [outcome, reason, bytes, storedBytes])).toEqual([
      ['partial', 'source', 10, 4],
      ['success', undefined, 5, undefined],
      ['partial', '_OTHER', undefined, undefined],
    ]);
  });

  it('a partial option that throws fails the run and rejects with its error', async () => {
    const stats = createRecordingStats();
    const broken = () => {
      throw new Error('cannot tell');
    };
    await expect(trackRun(stats, () => 1, { partial: broken, reason: () => RunFailure.Other })).rejects.toThrow(
      'cannot tell',
    );
    expect(stats.runs.map((run) => run.outcome)).toEqual(['failure']);
  });

  it('refuses a partial option that is not a function, and a storedBytes that is neither a number nor a function', () => {
    const work = vi.fn(() => 1);
    expect(() => trackRun(createRecordingStats(), work, { partial: true as never })).toThrow(
      new TypeError('backupstats: trackRun option partial is true; accepted: a function'),
    );
    expect(() => trackRun(createRecordingStats(), work, { storedBytes: '4' as never })).toThrow(
      new TypeError(
        'backupstats: trackRun option storedBytes is "4"; accepted: a number from 0 up, or a function of the result',
      ),
    );
    expect(work).not.toHaveBeenCalled();
  });
});
