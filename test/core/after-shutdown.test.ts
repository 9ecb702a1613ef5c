// Records made after shutdown() have nowhere to go: in every mode they are dropped at once (never summed on the
// handle) and reported once through diag.
import { createBackupStats } from 'backupstats';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';

describe('records after shutdown()', () => {
  it.for([1000, 0])(
    'are dropped, not summed on the handle, and reported once (interval %i)',
    async (flushIntervalMillis, { harness, diagnostics }) => {
      const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis });
      const handle = stats.backup.scope({ operation: 'Late' });
      await stats.shutdown();
      // Summed, these two would pass the largest pending sum and be dropped as invalid: dropped at once, they are not.
      handle.timedIncrementBytes(Number.MAX_SAFE_INTEGER, 1);
      handle.timedIncrementBytes(Number.MAX_SAFE_INTEGER, 1);
      handle.timedIncrement(1);
      stats.restore.timedIncrement(1);
      expect(diagnostics.messages.filter((m) => m.includes('invalid'))).toEqual([]);
      const said = diagnostics.messages.filter((m) => m.includes('after shutdown'));
      expect(said).toHaveLength(1);
      expect(said[0]).toContain('ignored');
    },
  );
});
