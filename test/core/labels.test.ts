// Label values from plain JavaScript callers (numbers, booleans, bigints, null) and the Vitess label values.
import { Component, createBackupStats, Implementation, Operation, type ScopeLabels } from 'backupstats';
import { connectBackupStats } from 'backupstats/worker';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { points } from '../support/harness.js';

describe('label values that are not strings', () => {
  it('numbers, booleans and bigints become their text; null and undefined leave the label unset', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    const untyped = (labels: Record<string, unknown>): ScopeLabels => labels as ScopeLabels;
    stats.backup
      .scope(untyped({ component: 7, implementation: false, operation: 12_345_678_901_234_567_890n }))
      .timedIncrement(1);
    stats.backup.scope(untyped({ component: 0, implementation: true, operation: 2.5 })).timedIncrement(1);
    stats.backup.scope(untyped({ component: null, implementation: 'I', operation: undefined })).timedIncrement(1);
    // A value given as a number and as its text is one label value: one handle, one series.
    expect(stats.backup.scope(untyped({ operation: 42 }))).toBe(stats.backup.scope({ operation: '42' }));

    const exported = points(await harness.collect()).filter((p) => p.name === 'backup.operations');
    expect(exported.map((p) => p.attributes)).toEqual([
      { component: '7', implementation: 'false', operation: '12345678901234567890' },
      { component: '0', implementation: 'true', operation: '2.5' },
      { component: '-', implementation: 'I', operation: '-' },
    ]);
    await stats.shutdown();
  });

  it('a scope given no labels (undefined) is the same handle; null is refused (test/core/label-sets.test.ts)', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    const engine = stats.backup.scope({ component: 'BackupEngine' });
    expect(engine.scope(undefined as unknown as ScopeLabels)).toBe(engine);
    expect(() => engine.scope(null as unknown as ScopeLabels)).toThrow(TypeError);
    await stats.shutdown();
  });
});

describe('label values Vitess uses', () => {
  it('are spelt as in Vitess, so that its dashboards keep working', () => {
    expect(Component).toEqual({ BackupEngine: 'BackupEngine', BackupStorage: 'BackupStorage' });
    expect(Implementation).toEqual({
      Builtin: 'Builtin',
      XtraBackup: 'XtraBackup',
      MySQLShell: 'MySQLShell',
      File: 'File',
      S3: 'S3',
      GCS: 'GCS',
      Azure: 'Azure',
      Ceph: 'Ceph',
    });
    expect(Operation).toEqual({
      SourceOpen: 'Source:Open',
      SourceRead: 'Source:Read',
      SourceClose: 'Source:Close',
      DestinationOpen: 'Destination:Open',
      DestinationWrite: 'Destination:Write',
      DestinationClose: 'Destination:Close',
      CompressorWrite: 'Compressor:Write',
      CompressorClose: 'Compressor:Close',
      DecompressorRead: 'Decompressor:Read',
      DecompressorClose: 'Decompressor:Close',
      FileRead: 'File:Read',
      FileWrite: 'File:Write',
      AWSRequestSend: 'AWS:Request:Send',
      Backup: 'Backup',
      Restore: 'Restore',
      Verify: 'Verify',
      Prune: 'Prune',
      PruneDelete: 'Prune:Delete',
    });
    expect(Object.isFrozen(Operation)).toBe(true);
  });
});

describe('label values longer than 256 characters', () => {
  it('record into the overflow series on the main thread and on a worker link, reported once by each; 256 are kept', async ({
    harness,
    diagnostics,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    const worker = connectBackupStats(stats.workerLink({ workers: 1 }));
    const longest = 'k'.repeat(256);
    for (const [side, family] of [
      ['main', stats.backup],
      ['worker', worker.backup],
    ] as const) {
      family.scope({ operation: `${side}:${'x'.repeat(1 << 20)}` }).timedIncrementBytes(3, 1);
      family
        .scope({ component: 'y'.repeat(257) })
        .scope({ operation: side })
        .timedIncrementBytes(4, 1);
      family.scope({ implementation: longest, operation: side }).timedIncrementBytes(5, 1);
    }
    const exported = points(await harness.collect()).filter((p) => p.name === 'backup.bytes');
    const overflow = exported.filter((p) => p.attributes['otel.metric.overflow'] === true);
    expect(overflow.map((p) => p.value)).toEqual([14]);
    expect(exported.filter((p) => p !== overflow[0]).map((p) => [p.attributes, p.value])).toEqual([
      [{ component: '-', implementation: longest, operation: 'main' }, 5],
      [{ component: '-', implementation: longest, operation: 'worker' }, 5],
    ]);
    // Once by each side: the worker says it in its own thread, here the same one.
    const said = 'backupstats: scope() was given a value of 1048581 characters for the operation label, longer than';
    expect(diagnostics.messages.filter((m) => m.includes('longer than'))).toEqual([
      expect.stringContaining(said),
      expect.stringContaining(said.replace('1048581', '1048583')),
    ]);
    worker.close();
    await stats.shutdown();
  });
});
