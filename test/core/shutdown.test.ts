import { startNode } from '@backupstats/testkit/node-process';
import { createBackupStats } from 'backupstats';
import { describe, expect, onTestFinished } from 'vitest';
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

  it('the flush timer never keeps a process alive', async () => {
    // A child that records and returns must exit on its own, with the timer armed and records pending.
    const program = `
      const { MeterProvider } = require('@opentelemetry/sdk-metrics');
      const { createBackupStats } = require('backupstats');
      const stats = createBackupStats({ meterProvider: new MeterProvider(), flushIntervalMillis: 50 });
      stats.backup.scope({ operation: 'Source:Read' }).timedIncrementBytes(1, 1);
      console.log('recorded');
    `;
    const child = startNode(['-e', program], { cwd: import.meta.dirname });
    onTestFinished(() => child.kill());
    expect(await child.exited, child.stderr()).toEqual({ code: 0, signal: null });
    expect(child.stdout().trim()).toBe('recorded');
  });
});
