// The self-metrics report every stats instance on a MeterProvider: the SDK gives them one Meter and the same
// instruments, so each instance observing its own numbers would let the last observation win.
import { createBackupStats, type Stats } from 'backupstats';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { valuesByKey } from '../support/harness.js';

describe('self-metrics of several stats on one provider', () => {
  it('are the sums over the instances; a shut-down instance keeps its invalid count and its series', async ({
    harness,
    diagnostics,
  }) => {
    const a = createBackupStats({ meterProvider: harness.provider });
    const b = createBackupStats({ meterProvider: harness.provider });
    const c = createBackupStats({ meterProvider: harness.provider, naming: 'vitess' });
    const bad = (stats: Stats, n: number): void => {
      for (let i = 0; i < n; i++) stats.timedIncrement(-1);
    };
    bad(a.backup, 3);
    a.backup.scope({ component: 'A1' });
    a.backup.scope({ component: 'A2' });
    b.backup.timedIncrement(4);
    b.backup.scope({ component: 'B1' });
    bad(b.restore, 2);
    bad(c.restore, 5);

    let values = valuesByKey(await harness.collect());
    expect(values.get('backupstats.invalid_measurements{backup}')).toBe(3);
    expect(values.get('backupstats.invalid_measurements{restore}')).toBe(7);
    // Only B's backup root holds numbers: A's scopes were only scoped, every other record was invalid.
    expect(values.get('backupstats.scopes{backup}')).toBe(1);
    expect(values.get('backupstats.scopes{restore}')).toBe(0);
    // Every instance's measurements are drained before the collection.
    expect(values.get('backup.operations{-,-,-}')).toBe(1);

    a.backup.scope({ component: 'A1' }).timedIncrement(1);
    a.restore.timedIncrement(1);
    await a.shutdown();
    bad(b.backup, 1);
    values = valuesByKey(await harness.collect());
    expect(values.get('backupstats.invalid_measurements{backup}')).toBe(4);
    expect(values.get('backupstats.invalid_measurements{restore}')).toBe(7);
    // A's two series stay in the export, and in the count.
    expect(values.get('backupstats.scopes{backup}')).toBe(2);
    expect(values.get('backupstats.scopes{restore}')).toBe(1);

    // A later instance on the same provider, once every earlier one is shut down, continues the counter: it
    // never goes back.
    await b.shutdown();
    await c.shutdown();
    const d = createBackupStats({ meterProvider: harness.provider });
    onTestFinished(() => d.shutdown());
    bad(d.backup, 1);
    d.backup.scope({ component: 'D1' }).timedIncrement(1);
    values = valuesByKey(await harness.collect());
    expect(values.get('backupstats.invalid_measurements{backup}')).toBe(5);
    expect(values.get('backupstats.scopes{backup}')).toBe(3);
    // Each instance says once, through diag, that it dropped an invalid measurement.
    expect(diagnostics.messages.filter((m) => m.includes('dropped an invalid'))).toHaveLength(4);
    // And nothing else: the counter was never handed a negative difference when an instance left, which the SDK
    // would drop with a warning ("negative value provided to counter").
    expect(diagnostics.messages.filter((m) => !m.includes('dropped an invalid'))).toEqual([]);
  });
});
