// metricPrefix is text before every metric name the stats create, their self-metrics included; stats with
// different prefixes on one provider keep their own self-metrics.
import { createBackupStats } from 'backupstats';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { points } from '../support/harness.js';

describe('metricPrefix and the self-metrics', () => {
  it('prefixes the self-metrics too, each prefix with its own', async ({ harness }) => {
    const vitess = createBackupStats({ meterProvider: harness.provider, naming: 'vitess', metricPrefix: 'vtbackup_' });
    const plain = createBackupStats({ meterProvider: harness.provider });
    vitess.backup.scope({ operation: 'a' }).timedIncrement(-1);
    vitess.backup.scope({ operation: 'b' }).timedIncrement(1);
    plain.backup.timedIncrement(Number.NaN);
    plain.backup.timedIncrement(Number.NaN);
    const exported = points(await harness.collect());
    const value = (name: string, family: string) =>
      exported.find((p) => p.name === name && p.attributes.family === family)?.value;
    expect(value('vtbackup_backupstats.invalid_measurements', 'backup')).toBe(1);
    expect(value('vtbackup_backupstats.scopes', 'backup')).toBe(1);
    expect(value('backupstats.invalid_measurements', 'backup')).toBe(2);
    expect(value('backupstats.scopes', 'backup')).toBe(0);
    await vitess.shutdown();
    await plain.shutdown();
  });
});
