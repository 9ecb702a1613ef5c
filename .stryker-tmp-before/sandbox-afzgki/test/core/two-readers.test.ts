// @ts-nocheck
import { AggregationTemporality } from '@opentelemetry/sdk-metrics';
import { createBackupStats } from 'backupstats';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createHarness, valuesByKey } from '../support/harness.js';

describe('two readers', () => {
  it('a cumulative and a delta reader each see every record exactly once in their terms', async () => {
    const harness = createHarness([AggregationTemporality.CUMULATIVE, AggregationTemporality.DELTA]);
    onTestFinished(() => harness.shutdown());
    const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis: 60_000 });
    const handle = stats.backup.scope({ operation: 'Destination:Write' });
    const key = 'backup.bytes{-,-,Destination:Write}';
    let deltaSum = 0;
    let recorded = 0;
    // Collections of the two readers interleave irregularly with records and explicit flushes.
    const schedule = ['c', 'd', 'd', 'f', 'c', 'c', 'd', 'f', 'f', 'd', 'c'];
    for (const [round, step] of schedule.entries()) {
      for (let i = 0; i <= round; i++) {
        handle.timedIncrementBytes(round + 1, 0.5);
        recorded += round + 1;
      }
      if (step === 'f') stats.flush();
      if (step === 'c') expect(valuesByKey(await harness.collect(0)).get(key)).toBe(recorded);
      if (step === 'd') deltaSum += valuesByKey(await harness.collect(1)).get(key) ?? 0;
    }
    deltaSum += valuesByKey(await harness.collect(1)).get(key) ?? 0;
    expect(valuesByKey(await harness.collect(0)).get(key)).toBe(recorded);
    expect(deltaSum).toBe(recorded);
    await stats.shutdown();
  });
});
