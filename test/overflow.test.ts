import { createBackupStats } from 'backupstats';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness, points, valuesByKey } from './support/harness.js';

let harness: Harness;
afterEach(() => harness.shutdown());

describe('maxScopes', () => {
  it('past the bound, records land in one overflow series: totals stay exact and handles stay bounded', async () => {
    harness = createHarness();
    const maxScopes = 10;
    const stats = createBackupStats({ meterProvider: harness.provider, maxScopes });
    let bytes = 0;
    for (let i = 0; i < 1000; i++) {
      const handle = stats.backup.scope({ operation: `op-${i}` });
      handle.timedIncrementBytes(i + 1, 1);
      bytes += i + 1;
    }
    const exported = await harness.collect();
    const values = valuesByKey(exported);
    // One place is kept for the overflow series: the root handle plus eight op-N handles.
    expect(values.get('backupstats.scopes{backup}')).toBe(maxScopes - 1);

    const series = points(exported).filter((p) => p.name === 'backup.bytes');
    // Eight op-N series (the root recorded nothing) plus the overflow series.
    expect(series).toHaveLength(maxScopes - 1);
    expect(series.reduce((sum, p) => sum + p.value, 0)).toBe(bytes);
    expect(values.get('backup.operations{overflow}')).toBe(1000 - (maxScopes - 2));
    await stats.shutdown();
  });

  it('an overflow handle keeps its labels for further scoping and still records into overflow', async () => {
    harness = createHarness();
    const stats = createBackupStats({ meterProvider: harness.provider, maxScopes: 3 });
    const kept = stats.backup.scope({ component: 'Kept' });
    const late = stats.backup.scope({ component: 'Late' });
    // Scoping from the overflow handle back to a known label set finds the memoized handle.
    expect(late.scope({ component: 'Kept' })).not.toBe(kept);
    expect(stats.backup.scope({ component: 'Kept' })).toBe(kept);
    late.scope({ operation: 'x' }).timedIncrementBytes(5, 1);
    late.timedIncrement(1);
    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.operations{overflow}')).toBe(2);
    expect(values.get('backup.bytes{overflow}')).toBe(5);
    await stats.shutdown();
  });
});
