import { createBackupStats } from 'backupstats';
import { UNSET } from 'backupstats/testing';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { valuesByKey } from '../support/harness.js';

describe('scope()', () => {
  it('memoizes: the same labels give the same handle, whatever the path to them', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    const a = stats.backup.scope({ component: 'C', implementation: 'I' }).scope({ operation: 'O' });
    const b = stats.backup.scope({ operation: 'O' }).scope({ implementation: 'I', component: 'C' });
    const c = stats.backup.scope({ component: 'C', implementation: 'I', operation: 'O' });
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(stats.backup.scope({})).toBe(stats.backup);
    // Backup and restore are separate families: same labels, different handles.
    expect(stats.restore.scope({ component: 'C', implementation: 'I', operation: 'O' })).not.toBe(a);
    await stats.shutdown();
  });

  it('keeps the first value set for a label, reads unset labels as "-", and never mutates the parent', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    const engine = stats.backup.scope({ component: 'BackupEngine' });
    const overridden = engine.scope({ component: 'BackupStorage', operation: 'Source:Read' });
    overridden.timedIncrement(1);
    engine.timedIncrement(1);
    stats.backup.scope({ component: '', operation: undefined }).timedIncrement(1);

    const values = valuesByKey(await harness.collect());
    expect(UNSET).toBe('-');
    expect(values.get('backup.operations{BackupEngine,-,Source:Read}')).toBe(1);
    expect(values.get('backup.operations{BackupEngine,-,-}')).toBe(1);
    expect(values.get('backup.operations{-,-,-}')).toBe(1);
    expect([...values.keys()].some((k) => k.includes('BackupStorage'))).toBe(false);
    await stats.shutdown();
  });
});
