// The verify and prune families beside backup and restore: the same Stats API, their own instruments, named as the
// others are in both namings, through a real MeterProvider.
import { createBackupStats, type Naming, Operation, RunFailure, trackRun } from 'backupstats';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { numbers, valuesByKey } from '../support/harness.js';
import { runKey, seriesKey } from '../support/series-key.js';

const NOT_NOW = { flushIntervalMillis: 2 ** 30 };
const CHECK = { component: 'BackupEngine', implementation: 'Builtin', operation: Operation.Verify };
const PRUNE = { component: 'BackupStorage', implementation: 'S3', operation: Operation.Prune };
const DELETE = { ...PRUNE, operation: Operation.PruneDelete };

describe('the verify and prune families', () => {
  const namings: { naming: Naming; prefix: string; name: (family: string, otel: string, vitess: string) => string }[] =
    [
      { naming: 'otel', prefix: '', name: (family, otel) => `${family}.${otel}` },
      { naming: 'vitess', prefix: 'vtbackup_', name: (family, _otel, vitess) => `vtbackup_${family}_${vitess}` },
    ];
  for (const { naming, prefix, name } of namings) {
    it(`${naming} naming: each records operations and runs of its own, apart from backup and restore`, async ({
      harness,
      diagnostics,
    }) => {
      const stats = createBackupStats({ meterProvider: harness.provider, naming, metricPrefix: prefix, ...NOT_NOW });
      await trackRun(stats.verify.scope(CHECK), () => 'checked', { bytes: 3000 });
      await expect(
        trackRun(stats.verify.scope(CHECK), () => Promise.reject(new Error('bad checksum')), {
          reason: () => RunFailure.Corrupted,
        }),
      ).rejects.toThrow('bad checksum');
      const prune = stats.prune.scope(PRUNE).startRun();
      const deletes = stats.prune.scope(DELETE);
      deletes.timedIncrementBytes(700, 2);
      deletes.timedIncrementBytes(300, 1);
      prune.succeed();
      const exported = await harness.collect();
      const values = numbers(exported);
      const series = valuesByKey(exported);
      const reasonKey = naming === 'otel' ? 'error.type' : 'reason';
      expect(values.get(runKey(name('verify', 'runs', 'run_count'), { ...CHECK, outcome: 'success' }))).toBe(1);
      expect(
        values.get(
          runKey(name('verify', 'runs', 'run_count'), { ...CHECK, outcome: 'failure', [reasonKey]: 'corrupted' }),
        ),
      ).toBe(1);
      expect(values.get(runKey(name('verify', 'last_success.bytes', 'last_success_bytes'), CHECK))).toBe(3000);
      expect(values.get(runKey(name('prune', 'runs', 'run_count'), { ...PRUNE, outcome: 'success' }))).toBe(1);
      expect(series.get(seriesKey(name('prune', 'operations', 'count'), DELETE))).toBe(2);
      // The bytes reclaimed: the family's bytes of Prune:Delete.
      expect(series.get(seriesKey(name('prune', 'bytes', 'bytes'), DELETE))).toBe(1000);
      expect(values.get(runKey(name('backup', 'runs', 'run_count'), { ...CHECK, outcome: 'success' }))).toBeUndefined();
      expect(series.get(seriesKey(name('backup', 'bytes', 'bytes'), DELETE))).toBeUndefined();
      expect(diagnostics.messages).toEqual([]);
      await stats.shutdown();
    });
  }

  it('self-metrics count their invalid measurements and series by family', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, quiet: true, ...NOT_NOW });
    stats.verify.scope(CHECK).timedIncrement(-1);
    stats.prune.scope(DELETE).timedIncrementBytes(1, 1);
    const values = valuesByKey(await harness.collect());
    expect(values.get('backupstats.invalid_measurements{verify}')).toBe(1);
    expect(values.get('backupstats.invalid_measurements{prune}')).toBe(0);
    expect(values.get('backupstats.scopes{prune}')).toBe(1);
    await stats.shutdown();
  });
});
