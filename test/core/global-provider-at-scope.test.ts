// Stats created before the application registers its global MeterProvider (before `sdk.start()`) look for it when
// a scope is asked for, not only at their next timer tick: a collection right after a scope() taken once the
// provider is registered sees what was recorded on it. Never on the record path.
import { metrics } from '@opentelemetry/api';
import { createBackupStats } from 'backupstats';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { createHarness, valuesByKey } from '../support/harness.js';

function registerLater(): ReturnType<typeof createHarness> {
  const harness = createHarness();
  onTestFinished(async () => {
    metrics.disable();
    await harness.shutdown();
  });
  return harness;
}

describe('stats created before the global MeterProvider', () => {
  it('a collection right after a scope() taken once it is registered sees the records (no timer tick needed)', async () => {
    const harness = registerLater();
    // An hour between ticks: only scope() can find the provider within this test.
    const stats = createBackupStats({ flushIntervalMillis: 3_600_000 });
    onTestFinished(() => stats.shutdown());
    expect(metrics.setGlobalMeterProvider(harness.provider)).toBe(true);

    stats.backup.scope({ component: 'C', implementation: 'I', operation: 'O' }).timedIncrementBytes(42, 1);
    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.bytes{C,I,O}')).toBe(42);
    expect(values.get('backup.operations{C,I,O}')).toBe(1);
  });

  it('records made before it was registered go out with the first collection after a scope() found it', async () => {
    const harness = registerLater();
    const stats = createBackupStats({ flushIntervalMillis: 3_600_000 });
    onTestFinished(() => stats.shutdown());
    const early = stats.restore.scope({ operation: 'Early' });
    early.timedIncrement(2);
    expect(metrics.setGlobalMeterProvider(harness.provider)).toBe(true);

    // A handle held since before: scoping anything, even the same labels again, finds the provider.
    expect(stats.restore.scope({ operation: 'Early' })).toBe(early);
    const values = valuesByKey(await harness.collect());
    expect(values.get('restore.operations{-,-,Early}')).toBe(1);
  });
});
