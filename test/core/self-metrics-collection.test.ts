// The instrument of the collection hook: an observable gauge that backupstats registers its batch callback with and
// never observes, so that it exports nothing. An application's gauge of the same name on the backupstats Meter
// shares its stream (the SDK merges compatible instruments, keeping the longer description), so that its export
// shows the hook's instrument as backupstats created it.
import { ValueType } from '@opentelemetry/api';
import type { ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { createBackupStats } from 'backupstats';
import { METER_NAME, VERSION } from 'backupstats/testing';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';

const names = (exported: ResourceMetrics): string[] =>
  exported.scopeMetrics.flatMap((s) => s.metrics.map((m) => m.descriptor.name));

describe('the instrument of the collection hook', () => {
  it('is named backupstats.collection after the prefix, described, and never observed', async ({
    harness,
    diagnostics,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, metricPrefix: 'job_' });
    stats.backup.timedIncrement(1);
    let exported = await harness.collect();
    expect(names(exported)).toContain('job_backupstats.invalid_measurements');
    expect(names(exported)).not.toContain('job_backupstats.collection');

    harness.provider
      .getMeter(METER_NAME, VERSION)
      .createObservableGauge('job_backupstats.collection')
      .addCallback((result) => result.observe(7));
    exported = await harness.collect();
    const collection = exported.scopeMetrics
      .flatMap((s) => s.metrics)
      .filter((m) => m.descriptor.name === 'job_backupstats.collection');
    expect(
      collection.map(({ descriptor: d, dataPoints }) => [
        d.name,
        d.description,
        d.unit,
        d.valueType,
        dataPoints.map((p) => p.value),
      ]),
    ).toEqual([
      [
        'job_backupstats.collection',
        'Never observed: the instrument the collection hook of backupstats is registered with.',
        '',
        ValueType.DOUBLE,
        [7],
      ],
    ]);
    // The SDK warned that the two descriptions differ.
    expect(diagnostics.messages).toEqual([expect.stringContaining(' has a different description ')]);
    await stats.shutdown();
  });
});
