// @ts-nocheck
// Stats created before the global MeterProvider is registered, seen through the `add` calls they make once it
// is: measurements wait aggregated as usual (one add per instrument per handle, not one per record), the first
// flush that finds the provider adds them, and unthrottled stats keep their timer only until then.
import { metrics } from '@opentelemetry/api';
import { createBackupStats } from 'backupstats';
import { afterEach, describe, expect, onTestFinished, vi } from 'vitest';
import { type CountingProvider, createCountingProvider } from '../support/counting-provider.js';
import { it } from '../support/fixtures.js';
import { createHarness } from '../support/harness.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A counting provider over a real one, to register as the global provider when the test says. */
function laterProvider(): { counting: CountingProvider; register(): void } {
  const harness = createHarness();
  const counting = createCountingProvider(harness.provider);
  onTestFinished(async () => {
    metrics.disable();
    await harness.shutdown();
  });
  return {
    counting,
    register: () => {
      expect(metrics.setGlobalMeterProvider(counting.provider)).toBe(true);
    },
  };
}

const LABELS = { component: 'C', implementation: 'I', operation: 'O' };

describe('stats created before the global MeterProvider is registered', () => {
  it.for([1000, 0])(
    'the first flush() that finds it adds what waited, one add per instrument (interval %i)',
    async (flushIntervalMillis, { diagnostics }) => {
      const later = laterProvider();
      const stats = createBackupStats({ flushIntervalMillis });
      const handle = stats.backup.scope(LABELS);
      for (let i = 0; i < 5; i++) handle.timedIncrementBytes(10, 1);
      stats.flush();
      // Waiting for a provider is not a failure: nothing is reported at warning level or above.
      expect(diagnostics.messages).toEqual([]);

      later.register();
      stats.flush();
      expect(later.counting.adds).toEqual([
        { instrument: 'backup.operations', value: 5, attributes: LABELS },
        { instrument: 'backup.bytes', value: 50, attributes: LABELS },
        { instrument: 'backup.time', value: 0.005, attributes: LABELS },
      ]);
      await stats.shutdown();
    },
  );

  it('unthrottled, the timer looks for the provider every second until it is there, flushes, and stops', async () => {
    const later = laterProvider();
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const stats = createBackupStats({ flushIntervalMillis: 0 });
    stats.restore.timedIncrement(4);
    vi.advanceTimersByTime(3000);
    expect(vi.getTimerCount()).toBe(1);

    later.register();
    vi.advanceTimersByTime(999);
    expect(later.counting.adds).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(later.counting.adds.map((a) => [a.instrument, a.value])).toEqual([
      ['restore.operations', 1],
      ['restore.time', 0.004],
    ]);
    expect(vi.getTimerCount()).toBe(0);
    await stats.shutdown();
  });
});
