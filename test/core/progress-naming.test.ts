// The progress gauges of runs in progress (an expected size, a phase): each one's name, unit, description and value
// type under both namings and for both families, as a real SDK exports them. test/runs/progress.test.ts checks
// their values; naming.test.ts the other instruments' descriptors.
import { ValueType } from '@opentelemetry/api';
import { createBackupStats, type Naming } from 'backupstats';
import { METER_NAME } from 'backupstats/testing';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';

const { INT, DOUBLE } = ValueType;

type Family = 'backup' | 'restore';
type Descriptor = readonly [name: string, unit: string, description: string, valueType: ValueType];

/** The five progress gauges of a family, in the order the SDK exports them (the order they were created). */
const PROGRESS_GAUGES: Record<Naming, (f: Family) => readonly Descriptor[]> = {
  otel: (f) => [
    [`${f}.active_runs`, '{run}', `Number of ${f} runs in progress that were given an expected size.`, INT],
    [`${f}.run.progress`, '1', `Bytes done over bytes expected of the ${f} run in progress.`, DOUBLE],
    [
      `${f}.run.remaining_time`,
      's',
      `Time left of the ${f} run in progress at its throughput of the last minute.`,
      DOUBLE,
    ],
    [
      `${f}.last_progress.timestamp`,
      's',
      `When the ${f} run in progress last moved, in seconds since the Unix epoch.`,
      DOUBLE,
    ],
    [`${f}.run.phase`, '1', `The current phase of the ${f} run (1) and its earlier phases (0).`, INT],
  ],
  vitess: (f) => [
    [`vtbackup_${f}_runs_in_progress`, '1', `${f} runs in progress that were given an expected size`, INT],
    [`vtbackup_${f}_run_progress_ratio`, '1', `bytes done over bytes expected of the ${f} run in progress`, DOUBLE],
    [
      `vtbackup_${f}_run_remaining_seconds`,
      's',
      `seconds left of the ${f} run in progress at its throughput of the last minute`,
      DOUBLE,
    ],
    [
      `vtbackup_${f}_last_progress_timestamp_seconds`,
      's',
      `when the ${f} run in progress last moved, Unix seconds`,
      DOUBLE,
    ],
    [`vtbackup_${f}_phase`, '1', `the current phase of the ${f} run (1), earlier phases (0)`, INT],
  ],
};

describe('the progress gauges: names, units, descriptions and value types', () => {
  it.for(['otel', 'vitess'] as const)('%s naming, both families', async (naming, { harness }) => {
    const stats = createBackupStats({
      meterProvider: harness.provider,
      naming,
      metricPrefix: naming === 'vitess' ? 'vtbackup_' : '',
      flushIntervalMillis: 2 ** 30,
    });
    for (const family of [stats.backup, stats.restore]) family.startRun({ expectedBytes: 100 }).phase('upload');
    const exported = await harness.collect();
    const metrics = exported.scopeMetrics.filter((s) => s.scope.name === METER_NAME).flatMap((s) => s.metrics);
    const progressNames = new Set([
      ...PROGRESS_GAUGES[naming]('backup').map(([name]) => name),
      ...PROGRESS_GAUGES[naming]('restore').map(([name]) => name),
    ]);
    const descriptors = metrics
      .filter((m) => progressNames.has(m.descriptor.name))
      .map(({ descriptor: d }) => [d.name, d.unit, d.description, d.valueType]);
    expect(descriptors).toEqual([...PROGRESS_GAUGES[naming]('backup'), ...PROGRESS_GAUGES[naming]('restore')]);
    // The phase gauge's one series carries the handle's labels and the phase, under the key "phase" in both namings.
    const phase = metrics.find((m) => m.descriptor.name === PROGRESS_GAUGES[naming]('restore')[4]?.[0]);
    expect(phase?.dataPoints.map((p) => [p.attributes, p.value])).toEqual([
      [{ component: '-', implementation: '-', operation: '-', phase: 'upload' }, 1],
    ]);
    await stats.shutdown();
  });
});
