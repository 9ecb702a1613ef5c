// @ts-nocheck
import type { MeterProvider as ApiMeterProvider, Counter, Meter } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import { startBackupStats } from 'backupstats/setup';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { points, valuesByKey } from '../support/harness.js';

describe('disabled', () => {
  it.each([
    [{ OTEL_SDK_DISABLED: 'true' }],
    [{ OTEL_SDK_DISABLED: ' TRUE ' }],
    [{ BACKUPSTATS_DISABLED: 'true' }],
    [{ BACKUPSTATS_DISABLED: 'true', OTEL_SDK_DISABLED: 'false' }],
    // Disabled means nothing else is read: a bad exporter variable does not stop a disabled program.
    [{ OTEL_SDK_DISABLED: 'true', OTEL_METRICS_EXPORTER: 'bogus' }],
  ])('%o gives stats that record nothing and no provider', async (env) => {
    const stats = await startBackupStats({ env });
    expect(stats.meterProvider).toBeUndefined();
    const scoped = stats.backup.scope({ operation: 'Source:Read' });
    expect(scoped.scope({ component: 'BackupEngine' })).toBe(scoped);
    scoped.timedIncrementBytes(10, 1);
    stats.flush();
    await stats.forceFlush();
    await stats.shutdown();
  });

  it('BACKUPSTATS_DISABLED=false wins over OTEL_SDK_DISABLED=true', async ({ harness }) => {
    const stats = await startBackupStats({
      env: { BACKUPSTATS_DISABLED: 'false', OTEL_SDK_DISABLED: 'true' },
      meterProvider: harness.provider,
    });
    stats.backup.timedIncrementBytes(3, 1);
    expect(valuesByKey(await harness.collect()).get('backup.bytes{-,-,-}')).toBe(3);
    await stats.shutdown();
  });

  it('the disabled option wins over the variables, both ways', async ({ harness }) => {
    const off = await startBackupStats({ env: { OTEL_SDK_DISABLED: 'false' }, disabled: true });
    expect(off.meterProvider).toBeUndefined();
    const on = await startBackupStats({
      env: { OTEL_SDK_DISABLED: 'true' },
      disabled: false,
      meterProvider: harness.provider,
    });
    expect(on.meterProvider).toBe(harness.provider);
    on.restore.timedIncrement(2);
    expect(valuesByKey(await harness.collect()).get('restore.operations{-,-,-}')).toBe(1);
    await on.shutdown();
  });

  it('reads process.env when no env is given', async () => {
    const before = process.env.BACKUPSTATS_DISABLED;
    process.env.BACKUPSTATS_DISABLED = 'true';
    try {
      const stats = await startBackupStats();
      expect(stats.meterProvider).toBeUndefined();
    } finally {
      if (before === undefined) delete process.env.BACKUPSTATS_DISABLED;
      else process.env.BACKUPSTATS_DISABLED = before;
    }
  });
});

describe('an existing MeterProvider', () => {
  it('gets the stats, the BACKUPSTATS_* variables apply, and nothing of it is owned or shut down', async ({
    harness,
  }) => {
    const stats = await startBackupStats({
      // Exporter variables belong to whoever built the provider: they are not read, so not even a bad one fails.
      env: { BACKUPSTATS_NAMING: 'vitess', BACKUPSTATS_METRIC_PREFIX: 'vtbackup_', OTEL_METRICS_EXPORTER: 'bogus' },
      meterProvider: harness.provider,
    });
    expect(stats.meterProvider).toBe(harness.provider);
    stats.backup
      .scope({ component: 'BackupStorage', implementation: 'File', operation: 'File:Write' })
      .timedIncrementBytes(4096, 2);
    await stats.shutdown();
    await stats.shutdown();

    // The final numbers were flushed into the provider, which still works: a new instrument still exports.
    harness.provider.getMeter('still-alive').createCounter('alive').add(1);
    const exported = await harness.collect();
    const values = valuesByKey(exported);
    expect(values.get('vtbackup_backup_bytes{BackupStorage,File,File:Write}')).toBe(4096);
    expect(values.get('vtbackup_backup_duration_nanoseconds{BackupStorage,File,File:Write}')).toBe(2_000_000);
    expect(points(exported).find((p) => p.name === 'alive')?.value).toBe(1);
  });
});

describe('an instrument that throws at shutdown', () => {
  it("rejects the stats' shutdown, and the given provider is still asked to export what it holds", async ({
    diagnostics,
  }) => {
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const real = new MeterProvider({
      readers: [new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 2 ** 30 })],
    });
    onTestFinished(() => real.shutdown());
    // A provider in front of the real one whose backup.bytes counter always throws (a guard or a bug).
    const guarded: ApiMeterProvider & { forceFlush(): Promise<void> } = {
      forceFlush: () => real.forceFlush(),
      getMeter(name, version, options) {
        const meter = real.getMeter(name, version, options);
        return new Proxy(meter, {
          get(target, property: keyof Meter) {
            const value = (target[property] as (...args: unknown[]) => unknown).bind(target);
            if (property !== 'createCounter') return value;
            return (counterName: string, counterOptions: object): Counter => {
              const counter = target.createCounter(counterName, counterOptions);
              if (counterName !== 'backup.bytes') return counter;
              return {
                add() {
                  throw new Error('guarded');
                },
              };
            };
          },
        });
      },
    };
    const stats = await startBackupStats({ env: {}, meterProvider: guarded, flushIntervalMillis: 2 ** 30 });
    stats.backup.timedIncrementBytes(10, 1);
    await expect(stats.shutdown()).rejects.toThrow('guarded');
    // The export came from the shutdown's forceFlush: nothing else asks this reader to export.
    const exported = exporter.getMetrics().at(-1);
    expect(exported).toBeDefined();
    expect(valuesByKey(exported as ResourceMetrics).get('backup.operations{-,-,-}')).toBe(1);
    expect(diagnostics.messages.filter((m) => m.includes('they are lost'))).toHaveLength(1);
  });
});

describe('options in code win over the environment', () => {
  it('naming, prefix, flush interval and max scopes from code beat BACKUPSTATS_*', async ({ harness }) => {
    const stats = await startBackupStats({
      env: {
        BACKUPSTATS_NAMING: 'vitess',
        BACKUPSTATS_METRIC_PREFIX: 'env_',
        BACKUPSTATS_FLUSH_INTERVAL_MS: '1000',
        BACKUPSTATS_MAX_SCOPES: '2',
      },
      meterProvider: harness.provider,
      naming: 'otel',
      metricPrefix: 'code.',
      flushIntervalMillis: 0,
      maxScopes: 10,
    });
    stats.backup.scope({ operation: 'a' }).timedIncrementBytes(1, 1);
    stats.backup.scope({ operation: 'b' }).timedIncrementBytes(2, 1);
    const values = valuesByKey(await harness.collect());
    // maxScopes 2 from the variable would have sent both to the overflow series.
    expect(values.get('code.backup.bytes{-,-,a}')).toBe(1);
    expect(values.get('code.backup.bytes{-,-,b}')).toBe(2);
    expect(values.has('code.backup.bytes{overflow}')).toBe(false);
    await stats.shutdown();
  });

  it('the variables apply where code is silent', async ({ harness }) => {
    const stats = await startBackupStats({
      env: { BACKUPSTATS_NAMING: 'VITESS', BACKUPSTATS_MAX_SCOPES: '3' },
      meterProvider: harness.provider,
    });
    stats.backup.scope({ operation: 'a' }).timedIncrementBytes(1, 1);
    stats.backup.scope({ operation: 'b' }).timedIncrementBytes(2, 1);
    const values = valuesByKey(await harness.collect());
    expect(values.get('backup_bytes{-,-,a}')).toBe(1);
    expect(values.get('backup_bytes{overflow}')).toBe(2);
    await stats.shutdown();
  });

  it('a bad option in code is reported as the option, even when a variable is set too', async ({ harness }) => {
    await expect(
      startBackupStats({
        env: { BACKUPSTATS_NAMING: 'otel' },
        meterProvider: harness.provider,
        naming: 'statsd' as never,
      }),
    ).rejects.toThrow(/option naming is "statsd"; accepted: "otel" or "vitess"/);
  });
});
