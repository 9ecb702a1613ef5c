// Runs at the end of the job and before the provider exists, through an instrument that throws, and on every kind
// of handle: overflow, no-op and recording.
import { metrics } from '@opentelemetry/api';
import type { IAttributesProcessor } from '@opentelemetry/sdk-metrics';
import { createBackupStats, Operation, RunFailure, type RunFailureReason, trackRun } from 'backupstats';
import { createRecordingStats, noopStats } from 'backupstats/testing';
import { afterEach, describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { createHarness, histograms, numbers } from '../support/harness.js';
import { runKey } from '../support/series-key.js';

const LABELS = { component: 'BackupEngine', implementation: 'Builtin', operation: Operation.Backup };
const ROOT = { component: '-', implementation: '-', operation: '-' };
const NOT_NOW = { flushIntervalMillis: 2 ** 30 };

afterEach(() => {
  metrics.disable();
});

describe('runs at the end of the job', () => {
  it('shutdown ends the runs in progress as interrupted failures, and the provider exports them after it', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    stats.backup.scope(LABELS).startRun().succeed(123);
    const inProgress = stats.backup.scope(LABELS).startRun();
    const other = stats.restore.startRun();
    await stats.shutdown();
    // Ended after the shutdown: ignored, the shutdown already ended them.
    inProgress.succeed(1);
    other.fail(RunFailure.Source);

    const exported = await harness.collect();
    const values = numbers(exported);
    expect(values.get(runKey('backup.runs', { ...LABELS, outcome: 'success' }))).toBe(1);
    expect(values.get(runKey('backup.runs', { ...LABELS, outcome: 'failure', 'error.type': 'interrupted' }))).toBe(1);
    expect(values.get(runKey('restore.runs', { ...ROOT, outcome: 'failure', 'error.type': 'interrupted' }))).toBe(1);
    expect(values.get(runKey('restore.runs', { ...ROOT, outcome: 'failure', 'error.type': 'source' }))).toBe(0);
    // The gauges keep their last values in exports after the shutdown.
    expect(values.get(runKey('backup.last_success.bytes', LABELS))).toBe(123);
    expect(values.get(runKey('restore.last_failure.timestamp', ROOT))).toBeGreaterThan(0);
    expect(histograms(exported).get(runKey('backup.run.duration', { ...LABELS, outcome: 'failure' }))?.count).toBe(1);
  });

  it('a run started after shutdown records nothing and is reported once', async ({ harness, diagnostics }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    await stats.shutdown();
    stats.backup.startRun().succeed(5);
    stats.backup.startRun().succeed(5);
    // Something else on the provider, so that the reader has an export to show.
    harness.provider.getMeter('probe').createCounter('probe').add(1);
    // The self-metrics stay, as counters do: no scope held, no invalid measurement.
    const keys = [...numbers(await harness.collect()).keys()];
    expect(keys.filter((key) => !key.startsWith('backupstats.'))).toEqual(['probe{}']);
    expect(diagnostics.messages.filter((m) => m.includes('after shutdown()'))).toHaveLength(1);
  });

  it('runs ended before a global provider is registered are exported once it is', async () => {
    const stats = createBackupStats(NOT_NOW);
    onTestFinished(() => stats.shutdown());
    stats.backup.scope(LABELS).startRun().succeed(77);
    const global = createHarness();
    onTestFinished(() => global.shutdown());
    metrics.setGlobalMeterProvider(global.provider);
    stats.flush();
    const values = numbers(await global.collect());
    expect(values.get(runKey('backup.runs', { ...LABELS, outcome: 'success' }))).toBe(1);
    expect(values.get(runKey('backup.last_success.bytes', LABELS))).toBe(77);
  });

  it('an instrument that throws during a flush: the retry adds each run exactly once', async ({ diagnostics }) => {
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
    const harness = createHarness(undefined, [{ instrumentName: 'backup.runs', attributesProcessors: [processor] }]);
    onTestFinished(() => harness.shutdown());
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const handle = stats.backup.scope(LABELS);
    handle.startRun().succeed();
    // A run's numbers go to the instruments when it ends (so that its points start there): the failing add is
    // reported through diag, never thrown at the caller, and its numbers wait for the next flush.
    expect(() => handle.startRun().fail(RunFailure.Source)).not.toThrow();
    expect(diagnostics.messages.filter((m) => m.includes('processor failed'))).toHaveLength(1);
    diagnostics.messages.length = 0;
    stats.flush();
    stats.flush();
    const exported = await harness.collect();
    const values = numbers(exported);
    expect(values.get(runKey('backup.runs', { ...LABELS, outcome: 'success' }))).toBe(1);
    expect(values.get(runKey('backup.runs', { ...LABELS, outcome: 'failure', 'error.type': 'source' }))).toBe(1);
    expect(histograms(exported).get(runKey('backup.run.duration', { ...LABELS, outcome: 'failure' }))?.count).toBe(1);
    expect(diagnostics.messages).toEqual([]);
    await stats.shutdown();
  });
});

describe('runs on every kind of handle', () => {
  it('past maxScopes, a run started from an overflow handle goes to the overflow series', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, maxScopes: 3, ...NOT_NOW });
    stats.backup.scope({ operation: 'kept' });
    const overflowing = stats.backup.scope({ operation: 'one too many' });
    overflowing.startRun().succeed(9);
    overflowing.scope({ component: 'C' }).startRun().fail(RunFailure.Timeout);
    const values = numbers(await harness.collect());
    const overflow = { 'otel.metric.overflow': true };
    expect(values.get(runKey('backup.runs', { ...overflow, outcome: 'success' }))).toBe(1);
    expect(values.get(runKey('backup.runs', { ...overflow, outcome: 'failure', 'error.type': 'timeout' }))).toBe(1);
    expect(values.get(runKey('backup.last_success.bytes', overflow))).toBe(9);
    await stats.shutdown();
  });

  it('no-op stats start runs that record nothing', async () => {
    const run = noopStats.startRun();
    expect(() => {
      run.succeed(1);
      run.fail(RunFailure.Source);
    }).not.toThrow();
    await expect(trackRun(noopStats.backup, () => 5)).resolves.toBe(5);
  });

  it('recording stats keep every ended run with its labels, outcome, reason, duration and bytes', async () => {
    const stats = createRecordingStats();
    const engine = stats.scope({ component: 'BackupEngine', implementation: 'Builtin' });
    await trackRun(engine.scope({ operation: Operation.Backup }), () => ({ size: 10 }), { bytes: (r) => r.size });
    await expect(
      trackRun(engine, () => Promise.reject(new Error('x')), { reason: () => RunFailure.Destination }),
    ).rejects.toThrow('x');
    const open = stats.startRun();
    stats.startRun().fail('nonsense' as RunFailureReason);
    const ended = { durationMillis: expect.any(Number), bytes: undefined, storedBytes: undefined, warnings: [] };
    expect(stats.runs).toEqual([
      { ...ended, labels: LABELS, outcome: 'success', reason: undefined, bytes: 10 },
      { labels: { ...LABELS, operation: '-' }, outcome: 'failure', reason: 'destination', ...ended },
      { labels: ROOT, outcome: 'failure', reason: '_OTHER', ...ended },
    ]);
    expect(engine.runs).toBe(stats.runs);
    open.succeed();
    expect(stats.runs).toHaveLength(4);
  });
});
