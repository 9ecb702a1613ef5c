// backupstats.scopes counts the series that hold numbers: the root and the handles only scoped from (to add a label
// on the way to an operation) hold none, and a batch job's only export, the one after shutdown, still counts them.
import { createBackupStats } from 'backupstats';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { valuesByKey } from '../support/harness.js';

describe('backupstats.scopes', () => {
  it('counts the series recorded on, not the root nor the handles only scoped from', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    const engine = stats.backup.scope({ component: 'BackupEngine' }).scope({ implementation: 'Builtin' });
    engine.scope({ operation: 'Source:Read' }).timedIncrementBytes(10, 1);
    engine.scope({ operation: 'Source:Open' }).timedIncrement(1);
    stats.restore.scope({ operation: 'Decompressor:Read' });

    const values = valuesByKey(await harness.collect());
    expect(values.get('backupstats.scopes{backup}')).toBe(2);
    expect(values.get('backupstats.scopes{restore}')).toBe(0);
    await stats.shutdown();
  });

  it('still counts them in the export after shutdown, where the series stay', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    stats.backup.scope({ operation: 'Source:Read' }).timedIncrementBytes(10, 1);
    stats.backup.scope({ operation: 'Source:Open' }).timedIncrement(1);
    stats.restore.timedIncrement(1);
    await stats.shutdown();

    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.operations{-,-,Source:Read}')).toBe(1);
    expect(values.get('backupstats.scopes{backup}')).toBe(2);
    expect(values.get('backupstats.scopes{restore}')).toBe(1);
  });
});
