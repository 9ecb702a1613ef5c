import { Component, createBackupStats, Implementation, Operation } from 'backupstats';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { points, valuesByKey } from '../support/harness.js';

describe('exported totals equal what was recorded', () => {
  it('uses OpenTelemetry names and units by default, for backup and restore', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis: 60_000 });
    const read = stats.backup
      .scope({ component: Component.BackupEngine, implementation: Implementation.Builtin })
      .scope({ operation: Operation.SourceRead });
    read.timedIncrementBytes(1000, 2.5);
    read.timedIncrementBytes(24, 0.5);
    const open = stats.restore.scope({
      component: Component.BackupStorage,
      implementation: Implementation.S3,
      operation: Operation.SourceOpen,
    });
    open.timedIncrement(1500);

    const exported = await harness.collect();
    const values = valuesByKey(exported);
    expect(values.get('backup.operations{BackupEngine,Builtin,Source:Read}')).toBe(2);
    expect(values.get('backup.bytes{BackupEngine,Builtin,Source:Read}')).toBe(1024);
    expect(values.get('backup.time{BackupEngine,Builtin,Source:Read}')).toBeCloseTo(0.003, 12);
    expect(values.get('restore.operations{BackupStorage,S3,Source:Open}')).toBe(1);
    expect(values.get('restore.time{BackupStorage,S3,Source:Open}')).toBeCloseTo(1.5, 12);
    // A timed operation without bytes creates no bytes series.
    expect(values.has('restore.bytes{BackupStorage,S3,Source:Open}')).toBe(false);

    const units = new Map(points(exported).map((p) => [p.name, p.unit]));
    expect(units.get('backup.operations')).toBe('{operation}');
    expect(units.get('backup.bytes')).toBe('By');
    expect(units.get('backup.time')).toBe('s');
    await stats.shutdown();
  });

  it('uses Vitess names, integer nanoseconds and a prefix with the vitess preset', async ({ harness }) => {
    const stats = createBackupStats({
      meterProvider: harness.provider,
      naming: 'vitess',
      metricPrefix: 'vtbackup_',
    });
    const write = stats.backup.scope({ component: 'BackupStorage', implementation: 'File', operation: 'File:Write' });
    write.timedIncrementBytes(4096, 1.2345678);
    write.timedIncrementBytes(4096, 0.0000004);
    stats.restore.scope({ operation: 'Restore' }).timedIncrement(10_000);

    const values = valuesByKey(await harness.collect());
    expect(values.get('vtbackup_backup_count{BackupStorage,File,File:Write}')).toBe(2);
    expect(values.get('vtbackup_backup_bytes{BackupStorage,File,File:Write}')).toBe(8192);
    expect(values.get('vtbackup_backup_duration_nanoseconds{BackupStorage,File,File:Write}')).toBe(1_234_568);
    expect(values.get('vtbackup_restore_count{-,-,Restore}')).toBe(1);
    expect(values.get('vtbackup_restore_duration_nanoseconds{-,-,Restore}')).toBe(10_000_000_000);
    await stats.shutdown();
  });

  it('gives the same totals with flushIntervalMillis 0 (every record straight to the instruments)', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis: 0 });
    const handle = stats.backup.scope({ operation: Operation.DestinationWrite });
    for (let i = 0; i < 100; i++) handle.timedIncrementBytes(i, 0.25);
    handle.timedIncrement(5);
    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.operations{-,-,Destination:Write}')).toBe(101);
    expect(values.get('backup.bytes{-,-,Destination:Write}')).toBe(4950);
    expect(values.get('backup.time{-,-,Destination:Write}')).toBeCloseTo(0.03, 12);
    await stats.shutdown();
  });

  it('records through the global MeterProvider when none is given', async ({ harness }) => {
    const { metrics } = await import('@opentelemetry/api');
    metrics.setGlobalMeterProvider(harness.provider);
    try {
      const stats = createBackupStats();
      stats.backup.timedIncrementBytes(7, 1);
      const values = valuesByKey(await harness.collect());
      expect(values.get('backup.bytes{-,-,-}')).toBe(7);
      await stats.shutdown();
    } finally {
      metrics.disable();
    }
  });

  it('reports the series that hold numbers per family as a self-metric', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    stats.backup.scope({ operation: 'a' }).timedIncrement(1);
    stats.backup.scope({ operation: 'b' }).timedIncrement(1);
    stats.backup.scope({ operation: 'a' }).timedIncrement(1);
    stats.backup.scope({ operation: 'c' });
    const values = valuesByKey(await harness.collect());
    // Two scopes recorded on; the root and the one only scoped hold nothing.
    expect(values.get('backupstats.scopes{backup}')).toBe(2);
    expect(values.get('backupstats.scopes{restore}')).toBe(0);
    expect(values.get('backupstats.invalid_measurements{backup}')).toBe(0);
    await stats.shutdown();
  });
});

describe.each([1000, 0])('fractional byte counts (flushIntervalMillis %i)', (flushIntervalMillis) => {
  it('export the whole part of their sum, whatever the flush timing', async ({ harness }) => {
    const stats = createBackupStats({
      meterProvider: harness.provider,
      flushIntervalMillis: flushIntervalMillis === 0 ? 0 : 2 ** 30,
    });
    const flushedEach = stats.backup.scope({ operation: 'each' });
    const flushedOnce = stats.backup.scope({ operation: 'once' });
    const amounts = [...Array<number>(10).fill(0.5), 0.25, 0.25, 0.25, 0.5];
    for (const bytes of amounts) {
      flushedEach.timedIncrementBytes(bytes, 1);
      stats.flush();
    }
    for (const bytes of amounts) flushedOnce.timedIncrementBytes(bytes, 1);
    stats.flush();
    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.bytes{-,-,each}')).toBe(6);
    expect(values.get('backup.bytes{-,-,once}')).toBe(6);
    await stats.shutdown();
  });
});
