// What the one-time diagnostic messages say: which family, what was wrong, what is accepted, where further
// cases are counted.
import { createNoopMeter, type MeterProvider } from '@opentelemetry/api';
import { createBackupStats, type Stats } from 'backupstats';
import { describe, expect } from 'vitest';
import { it } from './support/fixtures.js';

describe('diagnostic messages', () => {
  it('an invalid measurement: named family, the rule, and where later ones are counted', async ({ harness, diagnostics }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    (stats.restore as Stats).timedIncrementBytes(-1, 1);
    stats.backup.timedIncrement(Number.NaN);
    expect(diagnostics.messages).toEqual([
      'backupstats: dropped an invalid restore measurement (bytes and durations must be numbers from 0 to ' +
        'Number.MAX_SAFE_INTEGER, and so must their sum pending until the next flush); ' +
        'further ones are counted in backupstats.invalid_measurements without a message',
    ]);
    await stats.shutdown();
  });

  it('a record after shutdown: named family, and that later ones are ignored too', async ({ harness, diagnostics }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    await stats.shutdown();
    stats.backup.timedIncrement(1);
    stats.restore.timedIncrement(1);
    expect(diagnostics.messages).toEqual([
      'backupstats: a backup measurement was recorded after shutdown() and is ignored, as are any later ones',
    ]);
  });

  it("a no-op MeterProvider given: that nothing will be exported, and what to do instead", async ({ diagnostics }) => {
    const noop: MeterProvider = { getMeter: () => createNoopMeter() };
    const stats = createBackupStats({ meterProvider: noop });
    expect(diagnostics.messages).toEqual([
      "backupstats: the meterProvider given is @opentelemetry/api's no-op provider (taken before an SDK registered?); " +
        'nothing will be exported. Leave the option out to follow the global provider once it is registered',
    ]);
    await stats.shutdown();
  });
});
