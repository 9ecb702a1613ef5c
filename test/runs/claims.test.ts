// What a run records besides its outcome, each checked so that it fails when it breaks: its duration (start to end,
// on vitest's fake clock), the bytes of the last success up to Number.MAX_SAFE_INTEGER, a run ended after a flush,
// and the runs of the recording stats.
import { createBackupStats, RUN_DURATION_BOUNDARIES, RunFailure } from 'backupstats';
import { createRecordingStats } from 'backupstats/testing';
import { describe, expect } from 'vitest';
import { spend, useFakeClock } from '../support/fake-clock.js';
import { it } from '../support/fixtures.js';
import { histograms, numbers } from '../support/harness.js';
import { runKey } from '../support/series-key.js';

useFakeClock();

const LABELS = { component: 'BackupEngine', implementation: 'Builtin', operation: 'Backup' };
const NOT_NOW = { flushIntervalMillis: 2 ** 30 };

describe('run durations', () => {
  it('from startRun() to the end of the run, in seconds, for successes and failures', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const handle = stats.backup.scope(LABELS);
    const first = handle.startRun();
    spend(1000);
    const second = handle.startRun();
    spend(1500);
    first.succeed();
    spend(250);
    second.fail(RunFailure.Source);
    const third = handle.startRun();
    spend(4000);
    third.succeed();

    const durations = histograms(await harness.collect());
    const success = durations.get(runKey('backup.run.duration', { ...LABELS, outcome: 'success' }));
    const failure = durations.get(runKey('backup.run.duration', { ...LABELS, outcome: 'failure' }));
    expect([success?.count, success?.sum]).toEqual([2, 6.5]);
    expect([failure?.count, failure?.sum]).toEqual([1, 1.75]);
    await stats.shutdown();
  });

  it('recording stats: the duration in milliseconds; only the first end of a run counts', () => {
    const stats = createRecordingStats();
    const run = stats.startRun();
    spend(30);
    run.succeed(5);
    spend(10);
    run.fail();
    run.succeed(6);
    const failed = stats.startRun();
    spend(12);
    failed.fail(RunFailure.Timeout);
    failed.succeed(1);
    const root = { component: '-', implementation: '-', operation: '-' };
    const none = { storedBytes: undefined, warnings: [] };
    expect(stats.runs).toEqual([
      { labels: root, outcome: 'success', reason: undefined, durationMillis: 30, bytes: 5, ...none },
      { labels: root, outcome: 'failure', reason: 'timeout', durationMillis: 12, bytes: undefined, ...none },
    ]);
  });
});

describe('runs ended after a flush', () => {
  it('are added at the next flush, a failure alone as well as a success alone', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const succeeding = { ...LABELS, operation: 'Succeeding' };
    const failing = { ...LABELS, operation: 'Failing' };
    const ok = stats.backup.scope(succeeding).startRun();
    const bad = stats.backup.scope(failing).startRun();
    stats.flush();
    ok.succeed();
    bad.fail(RunFailure.Corrupted);
    const values = numbers(await harness.collect());
    expect(values.get(runKey('backup.runs', { ...succeeding, outcome: 'success' }))).toBe(1);
    expect(values.get(runKey('backup.runs', { ...failing, outcome: 'failure', 'error.type': 'corrupted' }))).toBe(1);
    await stats.shutdown();
  });
});

describe('the bytes of the last success', () => {
  it('up to Number.MAX_SAFE_INTEGER are kept; more are dropped and counted as invalid, the success still counts', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const restore = { ...LABELS, operation: 'Restore' };
    stats.backup.scope(LABELS).startRun().succeed(Number.MAX_SAFE_INTEGER);
    const handle = stats.backup.scope(restore);
    handle.startRun().succeed(2 ** 60);
    handle.startRun().succeed(Number.POSITIVE_INFINITY);
    const values = numbers(await harness.collect());
    expect(values.get(runKey('backup.last_success.bytes', LABELS))).toBe(Number.MAX_SAFE_INTEGER);
    expect(values.get(runKey('backup.runs', { ...restore, outcome: 'success' }))).toBe(2);
    // No success of that handle gave valid bytes: its gauge shows nothing.
    expect(values.has(runKey('backup.last_success.bytes', restore))).toBe(false);
    expect(values.get(runKey('backupstats.invalid_measurements', { family: 'backup' }))).toBe(2);
    await stats.shutdown();
  });
});

describe('a failure given no reason', () => {
  it('is recorded as _OTHER without a warning: leaving the reason out is not a mistake', async ({
    harness,
    diagnostics,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    stats.backup.scope(LABELS).startRun().fail();
    const values = numbers(await harness.collect());
    expect(values.get(runKey('backup.runs', { ...LABELS, outcome: 'failure', 'error.type': '_OTHER' }))).toBe(1);
    expect(diagnostics.messages).toEqual([]);
    await stats.shutdown();
  });
});

describe('the gauges of a handle', () => {
  it('show only what happened: no last failure after successes only, no last success after failures only', async ({
    harness,
    diagnostics,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const succeeding = { ...LABELS, operation: 'Succeeding' };
    const failing = { ...LABELS, operation: 'Failing' };
    stats.backup.scope(succeeding).startRun().succeed(3);
    stats.backup.scope(failing).startRun().fail(RunFailure.Timeout);
    const values = numbers(await harness.collect());
    expect(values.has(runKey('backup.last_success.timestamp', succeeding))).toBe(true);
    expect(values.has(runKey('backup.last_failure.timestamp', succeeding))).toBe(false);
    expect(values.has(runKey('backup.last_failure.timestamp', failing))).toBe(true);
    expect(values.has(runKey('backup.last_success.timestamp', failing))).toBe(false);
    expect(values.has(runKey('backup.last_success.bytes', failing))).toBe(false);
    // Nothing was handed to the SDK without a value (it would drop it with a warning).
    expect(diagnostics.messages).toEqual([]);
    await stats.shutdown();
  });
});

describe('the duration buckets', () => {
  it('go from a second to a day, about two per doubling up to an hour', () => {
    expect(RUN_DURATION_BOUNDARIES).toEqual([
      1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200, 14400, 28800, 86400,
    ]);
  });
});
