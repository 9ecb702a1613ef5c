// Stats created before the application registers its global MeterProvider (at module import, the usual
// place) follow it once it is registered, and lose nothing recorded before; the API itself has no proxy
// MeterProvider for metrics, so instruments taken from the global provider too early would be no-ops for good.
import { DiagLogLevel, metrics } from '@opentelemetry/api';
import { createBackupStats } from 'backupstats';
import { describe, expect, it, onTestFinished } from 'vitest';
import { captureDiag } from '../support/diag-capture.js';
import { createHarness, valuesByKey } from '../support/harness.js';

const LABELS = { component: 'C', implementation: 'I', operation: 'O' };

/** Registers a real global provider, removed (with the diag logger) when the test ends. */
function registerGlobal(): ReturnType<typeof createHarness> {
  const harness = createHarness();
  expect(metrics.setGlobalMeterProvider(harness.provider)).toBe(true);
  onTestFinished(async () => {
    metrics.disable();
    await harness.shutdown();
  });
  return harness;
}

function captureInfo(): ReturnType<typeof captureDiag> {
  const diagnostics = captureDiag(DiagLogLevel.INFO);
  onTestFinished(() => diagnostics.restore());
  return diagnostics;
}

describe('stats created before the global MeterProvider is registered', () => {
  it.each([1000, 0])(
    'export everything to it once it is, including what was recorded before (interval %i)',
    async (flushIntervalMillis) => {
      const diagnostics = captureInfo();
      const stats = createBackupStats({ flushIntervalMillis });
      const handle = stats.backup.scope(LABELS);
      handle.timedIncrementBytes(1000, 5);
      stats.restore.timedIncrement(-1);
      stats.flush();

      const global = registerGlobal();
      handle.timedIncrementBytes(24, 5);
      await stats.shutdown();
      const values = valuesByKey(await global.collect());
      expect(values.get('backup.operations{C,I,O}')).toBe(2);
      expect(values.get('backup.bytes{C,I,O}')).toBe(1024);
      expect(values.get('backup.time{C,I,O}')).toBeCloseTo(0.01, 12);
      expect(diagnostics.messages.filter((m) => m.includes('no global MeterProvider'))).toHaveLength(1);
      expect(diagnostics.messages.filter((m) => m.includes('global MeterProvider was registered'))).toHaveLength(1);
    },
  );

  it.each([50, 0])(
    'the flush timer finds the provider, and collections then drain and report as usual (interval %i)',
    async (flushIntervalMillis) => {
      captureInfo();
      const stats = createBackupStats({ flushIntervalMillis });
      onTestFinished(() => stats.shutdown());
      const handle = stats.backup.scope(LABELS);
      handle.timedIncrementBytes(1000, 5);
      stats.backup.timedIncrement(-1);

      const global = registerGlobal();
      await expect
        .poll(async () => valuesByKey(await global.collect()).get('backup.bytes{C,I,O}'), {
          timeout: 10_000,
          interval: 100,
        })
        .toBe(1000);
      handle.timedIncrementBytes(24, 5);
      const values = valuesByKey(await global.collect());
      expect(values.get('backup.bytes{C,I,O}')).toBe(1024);
      expect(values.get('backupstats.invalid_measurements{backup}')).toBe(1);
      // The root's one record was invalid: it holds no numbers.
      expect(values.get('backupstats.scopes{backup}')).toBe(1);
    },
  );

  it('shut down before any provider was registered: says what was never exported', async () => {
    const diagnostics = captureInfo();
    const stats = createBackupStats();
    stats.backup.scope(LABELS).timedIncrementBytes(1000, 5);
    stats.restore.timedIncrement(1);
    stats.restore.timedIncrement(1);
    await stats.shutdown();
    const warning = diagnostics.messages.filter((m) => m.includes('never exported'));
    expect(warning).toHaveLength(1);
    expect(warning[0]).toContain('3 operations');

    // A provider registered afterwards gets nothing from stats already shut down.
    const global = registerGlobal();
    global.provider.getMeter('probe').createCounter('probe').add(1);
    stats.flush();
    expect([...valuesByKey(await global.collect()).keys()]).toEqual(['probe{undefined,undefined,undefined}']);
  });

  it('a provider registered before the stats are created is used at once', async () => {
    const global = registerGlobal();
    const diagnostics = captureInfo();
    const stats = createBackupStats({ flushIntervalMillis: 2 ** 30 });
    stats.backup.scope(LABELS).timedIncrementBytes(10, 1);
    expect(valuesByKey(await global.collect()).get('backup.bytes{C,I,O}')).toBe(10);
    await stats.shutdown();
    expect(diagnostics.messages).toEqual([]);
  });
});

describe('a no-op MeterProvider given explicitly', () => {
  it('is used as given, with a warning that nothing will be exported', async () => {
    const diagnostics = captureInfo();
    const stats = createBackupStats({ meterProvider: metrics.getMeterProvider() });
    stats.backup.timedIncrement(1);
    await stats.shutdown();
    expect(diagnostics.messages.filter((m) => m.includes('no-op provider'))).toHaveLength(1);
  });
});
