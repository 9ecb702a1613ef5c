import { type BackupStats, createBackupStats, Operation } from 'backupstats';
import { createRecordingStats, noopStats } from 'backupstats/testing';
import { connectBackupStats } from 'backupstats/worker';
import { describe, expect, it, onTestFinished } from 'vitest';

describe('createRecordingStats', () => {
  it('records every call with its resolved labels, shared across the scoped tree', () => {
    const stats = createRecordingStats();
    const engine = stats.scope({ component: 'BackupEngine', implementation: 'Builtin' });
    const read = engine.scope({ operation: Operation.SourceRead, component: 'ignored' });
    read.timedIncrementBytes(100, 2);
    read.timedIncrementBytes(50, 1);
    engine.scope({ operation: Operation.SourceClose }).timedIncrement(0.5);

    expect(read.labels).toEqual({ component: 'BackupEngine', implementation: 'Builtin', operation: 'Source:Read' });
    expect(stats.calls).toHaveLength(3);
    expect(engine.calls).toBe(stats.calls);
    expect(stats.calls[2]).toEqual({
      method: 'timedIncrement',
      labels: { component: 'BackupEngine', implementation: 'Builtin', operation: 'Source:Close' },
      bytes: 0,
      durationMillis: 0.5,
      weight: 1,
    });
    expect(stats.totals({ operation: Operation.SourceRead })).toEqual({ count: 2, bytes: 150, durationMillis: 3 });
    expect(stats.totals({ component: 'BackupEngine' })).toEqual({ count: 3, bytes: 150, durationMillis: 3.5 });
    expect(stats.totals()).toEqual({ count: 3, bytes: 150, durationMillis: 3.5 });
    expect(stats.totals({ implementation: 'S3' })).toEqual({ count: 0, bytes: 0, durationMillis: 0 });
  });

  it('totals() filters on each label given, and on all of them together', () => {
    const stats = createRecordingStats();
    stats.scope({ component: 'C1', implementation: 'I1', operation: 'O1' }).timedIncrementBytes(1, 1);
    stats.scope({ component: 'C1', implementation: 'I2', operation: 'O2' }).timedIncrementBytes(2, 2);
    stats.scope({ component: 'C2', implementation: 'I1', operation: 'O2' }).timedIncrementBytes(4, 4);
    expect(stats.totals({ component: 'C1' }).bytes).toBe(3);
    expect(stats.totals({ implementation: 'I1' }).bytes).toBe(5);
    expect(stats.totals({ operation: 'O2' }).bytes).toBe(6);
    expect(stats.totals({ component: 'C1', operation: 'O2' }).bytes).toBe(2);
    expect(stats.totals({ implementation: 'I1', operation: 'O2' }).bytes).toBe(4);
    expect(stats.totals({ component: 'C2', implementation: 'I2' }).count).toBe(0);
  });

  it('scopes as the real stats do with labels that cannot be right, silently: unknown names ignored, values as text', () => {
    const stats = createRecordingStats();
    const scoped = stats.scope({ component: 7, implementaton: 'S3', operation: true } as never);
    expect(scoped.labels).toEqual({ component: '7', implementation: '-', operation: 'true' });
  });
});

describe('no-op stats', () => {
  it('accept every call, scope to themselves and resolve shutdown', async () => {
    expect(noopStats.scope({ operation: 'x' })).toBe(noopStats);
    expect(() => noopStats.timedIncrementBytes(-1, Number.NaN)).not.toThrow();
    const stats = noopStats;
    expect(stats.backup).toBe(noopStats);
    stats.restore.timedIncrement(1);
    stats.flush();
    await expect(stats.shutdown()).resolves.toBeUndefined();
  });

  it('hand out a link that workers connect to and record nothing through, checking its options as the real stats do', () => {
    const real = createBackupStats();
    onTestFinished(() => real.shutdown());
    const refused = (stats: BackupStats): unknown => {
      try {
        stats.workerLink({ workers: 0 });
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const error = refused(noopStats);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toEqual(refused(real));
    expect((error as Error).message).toContain('workerLink option workers is 0');
    const stats = noopStats;
    const worker = connectBackupStats(stats.workerLink({ workers: 2 }));
    expect(() => worker.backup.scope({ operation: 'Source:Read' }).timedIncrementBytes(10, 1)).not.toThrow();
    worker.close();
  });
});
