// Every instrument's name, unit, description and value type under both namings, as a real SDK exports them,
// and the instrumentation scope they are reported under.
import { readFileSync } from 'node:fs';
import { ValueType } from '@opentelemetry/api';
import { createBackupStats, type Naming, RunFailure } from 'backupstats';
import { METER_NAME, VERSION } from 'backupstats/testing';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';

const { INT, DOUBLE } = ValueType;

/** The self-metrics, after the stats' metricPrefix as every other name. */
const selfMetrics = (prefix: string) =>
  [
    [
      `${prefix}backupstats.invalid_measurements`,
      '{measurement}',
      'Measurements dropped because a byte count or duration was negative, NaN, infinite or not a number.',
      INT,
    ],
    [
      `${prefix}backupstats.scopes`,
      '{scope}',
      'Label combinations recorded on, whose series the exports carry (the overflow series is not counted).',
      INT,
    ],
  ] as const;

const EXPECTED: Record<Naming, readonly (readonly [string, string, string, ValueType])[]> = {
  otel: [
    ['backup.operations', '{operation}', 'Number of backup operations recorded.', INT],
    ['backup.bytes', 'By', 'Bytes moved by backup operations.', INT],
    ['backup.time', 's', 'Time spent in backup operations.', DOUBLE],
    ['restore.operations', '{operation}', 'Number of restore operations recorded.', INT],
    ['restore.bytes', 'By', 'Bytes moved by restore operations.', INT],
    ['restore.time', 's', 'Time spent in restore operations.', DOUBLE],
    ...selfMetrics(''),
  ],
  vitess: [
    ['vtbackup_backup_count', '1', 'backup operations', INT],
    ['vtbackup_backup_bytes', 'By', 'backup bytes', INT],
    ['vtbackup_backup_duration_nanoseconds', 'ns', 'backup duration in nanoseconds', INT],
    ['vtbackup_restore_count', '1', 'restore operations', INT],
    ['vtbackup_restore_bytes', 'By', 'restore bytes', INT],
    ['vtbackup_restore_duration_nanoseconds', 'ns', 'restore duration in nanoseconds', INT],
    ...selfMetrics('vtbackup_'),
  ],
};

type Descriptor = readonly [string, string, string, ValueType];

/** The run instruments of a family under each naming (the Vitess ones with the prefix vtbackup_). */
const RUN_INSTRUMENTS: Record<Naming, (family: string) => readonly Descriptor[]> = {
  otel: (f) => [
    [`${f}.runs`, '{run}', `Number of ${f} runs ended, by outcome.`, INT],
    [`${f}.run.warnings`, '{warning}', `Number of warnings of ${f} runs, by reason.`, INT],
    [`${f}.run.duration`, 's', `Duration of ${f} runs.`, DOUBLE],
    [
      `${f}.last_success.timestamp`,
      's',
      `When the last successful ${f} run ended, in seconds since the Unix epoch.`,
      DOUBLE,
    ],
    [
      `${f}.last_failure.timestamp`,
      's',
      `When the last failed ${f} run ended, in seconds since the Unix epoch.`,
      DOUBLE,
    ],
    [
      `${f}.last_partial.timestamp`,
      's',
      `When the last ${f} run that ended partial ended, in seconds since the Unix epoch.`,
      DOUBLE,
    ],
    [`${f}.last_success.bytes`, 'By', `Bytes read by the last successful ${f} run.`, INT],
    [`${f}.last_success.stored_bytes`, 'By', `Bytes stored by the last successful ${f} run.`, INT],
  ],
  vitess: (f) => [
    [`vtbackup_${f}_run_count`, '1', `${f} runs by outcome`, INT],
    [`vtbackup_${f}_run_warning_count`, '1', `warnings of ${f} runs by reason`, INT],
    [`vtbackup_${f}_run_duration_seconds`, 's', `${f} run duration in seconds`, DOUBLE],
    [`vtbackup_${f}_last_success_timestamp_seconds`, 's', `end of the last successful ${f} run, Unix seconds`, DOUBLE],
    [`vtbackup_${f}_last_failure_timestamp_seconds`, 's', `end of the last failed ${f} run, Unix seconds`, DOUBLE],
    [`vtbackup_${f}_last_partial_timestamp_seconds`, 's', `end of the last partial ${f} run, Unix seconds`, DOUBLE],
    [`vtbackup_${f}_last_success_bytes`, 'By', `bytes of the last successful ${f} run`, INT],
    [`vtbackup_${f}_last_success_stored_bytes`, 'By', `bytes stored by the last successful ${f} run`, INT],
  ],
};

const NAMINGS: readonly Naming[] = ['otel', 'vitess'];

describe('instrument names, units, descriptions and value types', () => {
  it('offers exactly the otel and vitess namings', () => {
    expect(() => createBackupStats({ naming: 'statsd' as Naming })).toThrow(
      /option naming is "statsd"; accepted: "otel" or "vitess"$/,
    );
  });

  it.for(NAMINGS)('%s naming', async (naming, { harness }) => {
    const stats = createBackupStats({
      meterProvider: harness.provider,
      naming,
      metricPrefix: naming === 'vitess' ? 'vtbackup_' : '',
    });
    stats.backup.timedIncrementBytes(1, 1);
    stats.restore.timedIncrementBytes(1, 1);
    const exported = await harness.collect();
    const scopes = exported.scopeMetrics.filter((s) => s.scope.name === METER_NAME);
    expect(scopes).toHaveLength(1);
    const descriptors = (scopes[0]?.metrics ?? []).map(({ descriptor: d }) => [
      d.name,
      d.unit,
      d.description,
      d.valueType,
    ]);
    expect(descriptors).toEqual(EXPECTED[naming]);
    await stats.shutdown();
  });

  it('reports itself as the instrumentation scope "backupstats" with the package version', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    const exported = await harness.collect();
    const packageJson = JSON.parse(
      readFileSync(new URL('../../packages/processor/package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    expect(exported.scopeMetrics.map((s) => s.scope)).toEqual([
      { name: 'backupstats', version: packageJson.version, schemaUrl: undefined },
    ]);
    expect(VERSION).toBe(packageJson.version);
    await stats.shutdown();
  });

  it.for(NAMINGS)('%s naming: the run instruments', async (naming, { harness }) => {
    const stats = createBackupStats({
      meterProvider: harness.provider,
      naming,
      metricPrefix: naming === 'vitess' ? 'vtbackup_' : '',
    });
    for (const family of [stats.backup, stats.restore, stats.verify, stats.prune]) {
      family.startRun().succeed(1, { storedBytes: 1 });
      family.startRun().fail(RunFailure.Source);
      family.startRun().partial(RunFailure.Source);
    }
    const exported = await harness.collect();
    const counters = new Set(EXPECTED[naming].map(([name]) => name));
    const descriptors = exported.scopeMetrics
      .flatMap((s) => s.metrics)
      .map(({ descriptor: d }) => [d.name, d.unit, d.description, d.valueType])
      .filter(([name]) => !counters.has(name as string));
    expect(descriptors).toEqual(
      ['backup', 'restore', 'verify', 'prune'].flatMap((family) => RUN_INSTRUMENTS[naming](family)),
    );
    await stats.shutdown();
  });
});
