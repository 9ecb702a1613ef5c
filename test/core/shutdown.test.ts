import { createBackupStats } from 'backupstats';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { valuesByKey } from '../support/harness.js';

describe('shutdown()', () => {
  it.for([1000, 0])(
    'flushes what is pending; later records are ignored and reported once (interval %i)',
    async (flushIntervalMillis, { harness, diagnostics }) => {
      const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis });
      const handle = stats.restore.scope({ operation: 'Decompressor:Read' });
      handle.timedIncrementBytes(42, 1);
      await stats.shutdown();
      await stats.shutdown();

      // The collection callback is detached, so only shutdown() itself can have moved the numbers; the series the
      // instance recorded on stay in the self-metrics, as they stay in the export.
      let values = valuesByKey(await harness.collect());
      expect(values.get('restore.bytes{-,-,Decompressor:Read}')).toBe(42);
      expect(values.get('backupstats.scopes{restore}')).toBe(1);

      for (let i = 0; i < 10; i++) handle.timedIncrementBytes(1, 1);
      stats.backup.timedIncrement(1);
      stats.flush();
      values = valuesByKey(await harness.collect());
      expect(values.get('restore.bytes{-,-,Decompressor:Read}')).toBe(42);
      expect(values.get('restore.operations{-,-,Decompressor:Read}')).toBe(1);
      expect(values.has('backup.operations{-,-,-}')).toBe(false);
      expect(diagnostics.messages.filter((m) => m.includes('after shutdown'))).toHaveLength(1);
    },
  );
});
