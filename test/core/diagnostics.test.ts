// What the one-time diagnostic messages say: which family, what was wrong, what is accepted, where further
// cases are counted.
import { createNoopMeter, type MeterProvider } from '@opentelemetry/api';
import { createBackupStats, type RunFailureReason, type Stats } from 'backupstats';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';

describe('diagnostic messages', () => {
  it('an invalid measurement: named family, the rule, and where later ones are counted', async ({
    harness,
    diagnostics,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    (stats.restore as Stats).timedIncrementBytes(-1, 1);
    stats.backup.timedIncrement(Number.NaN);
    expect(diagnostics.messages).toEqual([
      'backupstats: dropped an invalid restore measurement (bytes and durations must be numbers from 0 to ' +
        'Number.MAX_SAFE_INTEGER, and so must their sum pending until the next flush; a weight, a whole number ' +
        'from 0 to 65,536); ' +
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

  it('a no-op MeterProvider given: that nothing will be exported, and what to do instead', async ({ diagnostics }) => {
    const noop: MeterProvider = { getMeter: () => createNoopMeter() };
    const stats = createBackupStats({ meterProvider: noop });
    expect(diagnostics.messages).toEqual([
      "backupstats: the meterProvider given is @opentelemetry/api's no-op provider (taken before an SDK registered?); " +
        'nothing will be exported. Pass the provider once the SDK has registered it (with the NodeSDK, ' +
        'metrics.getMeterProvider() after sdk.start()); createBackupStats() without meterProvider follows the ' +
        'global provider as soon as it is registered',
    ]);
    await stats.shutdown();
  });

  it('a run failure reason outside RunFailure: the value (text cut at 64 characters, or its type), the vocabulary', async ({
    harness,
    diagnostics,
  }) => {
    // Each stats instance says it once: two instances, two messages.
    const first = createBackupStats({ meterProvider: harness.provider });
    const second = createBackupStats({ meterProvider: harness.provider });
    first.backup.startRun().fail('x'.repeat(70) as RunFailureReason);
    second.restore.startRun().fail(42 as unknown as RunFailureReason);
    const rest =
      'which is not one of RunFailure (interrupted, timeout, source, destination, corrupted, configuration, _OTHER); it is recorded as _OTHER, as are any later ones';
    expect(diagnostics.messages).toEqual([
      `backupstats: a run's failure, partial end or warning gave the reason "${'x'.repeat(64)}", ${rest}`,
      `backupstats: a run's failure, partial end or warning gave the reason a value of type number, ${rest}`,
    ]);
    await first.shutdown();
    await second.shutdown();
  });

  it('shut down before any MeterProvider: how many operations and runs were never exported, runs in progress included', async ({
    diagnostics,
  }) => {
    // With nothing recorded, nothing to say.
    await createBackupStats().shutdown();
    const stats = createBackupStats();
    stats.backup.timedIncrement(1);
    stats.backup.scope({ operation: 'Source:Read' }).timedIncrementBytes(5, 1);
    stats.restore.timedIncrement(1);
    stats.backup.startRun().succeed(5);
    stats.restore.startRun().fail();
    // Still in progress: shutdown ends it as interrupted, one more run never exported.
    stats.backup.startRun();
    await stats.shutdown();
    expect(diagnostics.messages).toEqual([
      'backupstats: shutdown() before any global MeterProvider was registered: 3 operations and 3 runs recorded were never exported',
    ]);
  });
});
