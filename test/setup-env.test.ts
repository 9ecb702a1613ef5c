import { startBackupStats } from 'backupstats/setup';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness, points, valuesByKey } from './support/harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.shutdown();
  harness = undefined;
});

interface BadCase {
  readonly env: Record<string, string>;
  readonly variable: string;
  /** The text the message must show as the value (the raw value, quoted), or undefined for secrets. */
  readonly shown: string | undefined;
  /** A fragment of the accepted values that the message must contain. */
  readonly accepted: string;
}

// Every case also sets a valid exporter so that the variable under test is the one that is read and rejected.
const prometheus = { OTEL_METRICS_EXPORTER: 'prometheus', OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1' };
const json = { OTEL_METRICS_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' };

const badValues: BadCase[] = [
  { env: { OTEL_SDK_DISABLED: 'yes' }, variable: 'OTEL_SDK_DISABLED', shown: '"yes"', accepted: '"true" or "false"' },
  { env: { BACKUPSTATS_DISABLED: '1' }, variable: 'BACKUPSTATS_DISABLED', shown: '"1"', accepted: '"true" or "false"' },
  { env: { OTEL_METRICS_EXPORTER: 'jaeger' }, variable: 'OTEL_METRICS_EXPORTER', shown: '"jaeger"', accepted: '"otlp", "prometheus", "console" or "none"' },
  { env: { OTEL_METRICS_EXPORTER: 'console,logging' }, variable: 'OTEL_METRICS_EXPORTER', shown: '"console,logging"', accepted: '"otlp", "prometheus", "console" or "none"' },
  { env: { OTEL_METRICS_EXPORTER: ' , ' }, variable: 'OTEL_METRICS_EXPORTER', shown: '" , "', accepted: '"otlp", "prometheus", "console" or "none"' },
  { env: { OTEL_METRICS_EXPORTER: 'none,console' }, variable: 'OTEL_METRICS_EXPORTER', shown: '"none,console"', accepted: '"none" alone' },
  { env: { ...json, OTEL_METRIC_EXPORT_INTERVAL: '-5' }, variable: 'OTEL_METRIC_EXPORT_INTERVAL', shown: '"-5"', accepted: 'an integer from 1 to 2147483647' },
  { env: { ...json, OTEL_METRIC_EXPORT_INTERVAL: '1.5' }, variable: 'OTEL_METRIC_EXPORT_INTERVAL', shown: '"1.5"', accepted: 'an integer from 1' },
  { env: { ...json, OTEL_METRIC_EXPORT_INTERVAL: '0' }, variable: 'OTEL_METRIC_EXPORT_INTERVAL', shown: '"0"', accepted: 'an integer from 1' },
  { env: { ...json, OTEL_METRIC_EXPORT_INTERVAL: '60s' }, variable: 'OTEL_METRIC_EXPORT_INTERVAL', shown: '"60s"', accepted: 'an integer from 1' },
  { env: { ...json, OTEL_METRIC_EXPORT_TIMEOUT: 'soon' }, variable: 'OTEL_METRIC_EXPORT_TIMEOUT', shown: '"soon"', accepted: 'an integer from 1' },
  {
    env: { ...json, OTEL_METRIC_EXPORT_INTERVAL: '1000', OTEL_METRIC_EXPORT_TIMEOUT: '5000' },
    variable: 'OTEL_METRIC_EXPORT_TIMEOUT',
    shown: '"5000"',
    accepted: 'an integer from 1 to OTEL_METRIC_EXPORT_INTERVAL (1000)',
  },
  { env: { ...json, OTEL_EXPORTER_OTLP_PROTOCOL: 'http' }, variable: 'OTEL_EXPORTER_OTLP_PROTOCOL', shown: '"http"', accepted: '"http/protobuf", "http/json" or "grpc"' },
  {
    env: { ...json, OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'grpc/json' },
    variable: 'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL',
    shown: '"grpc/json"',
    accepted: '"http/protobuf", "http/json" or "grpc"',
  },
  { env: { ...json, OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4318' }, variable: 'OTEL_EXPORTER_OTLP_ENDPOINT', shown: '"localhost:4318"', accepted: 'an http:// or https:// URL' },
  { env: { ...json, OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://collector' }, variable: 'OTEL_EXPORTER_OTLP_ENDPOINT', shown: '"ftp://collector"', accepted: 'an http:// or https:// URL' },
  {
    env: { ...json, OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'not a url' },
    variable: 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT',
    shown: '"not a url"',
    accepted: 'an http:// or https:// URL',
  },
  {
    env: { ...json, OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE: 'sometimes' },
    variable: 'OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE',
    shown: '"sometimes"',
    accepted: '"cumulative", "delta" or "lowmemory"',
  },
  { env: { ...prometheus, OTEL_EXPORTER_PROMETHEUS_PORT: '70000' }, variable: 'OTEL_EXPORTER_PROMETHEUS_PORT', shown: '"70000"', accepted: 'an integer from 1 to 65535' },
  { env: { ...prometheus, OTEL_EXPORTER_PROMETHEUS_PORT: '0' }, variable: 'OTEL_EXPORTER_PROMETHEUS_PORT', shown: '"0"', accepted: 'an integer from 1 to 65535' },
  { env: { ...prometheus, OTEL_EXPORTER_PROMETHEUS_PORT: '-1' }, variable: 'OTEL_EXPORTER_PROMETHEUS_PORT', shown: '"-1"', accepted: 'an integer from 1 to 65535' },
  { env: { ...prometheus, OTEL_EXPORTER_PROMETHEUS_PORT: 'http' }, variable: 'OTEL_EXPORTER_PROMETHEUS_PORT', shown: '"http"', accepted: 'an integer from 1 to 65535' },
  { env: { ...json, OTEL_RESOURCE_ATTRIBUTES: 'team' }, variable: 'OTEL_RESOURCE_ATTRIBUTES', shown: '"team"', accepted: 'comma-separated key=value pairs' },
  { env: { ...json, OTEL_RESOURCE_ATTRIBUTES: 'a=1,b=%zz' }, variable: 'OTEL_RESOURCE_ATTRIBUTES', shown: '"a=1,b=%zz"', accepted: 'percent-encoded values' },
  { env: { ...json, BACKUPSTATS_NAMING: 'prometheus' }, variable: 'BACKUPSTATS_NAMING', shown: '"prometheus"', accepted: '"otel" or "vitess"' },
  { env: { ...json, BACKUPSTATS_FLUSH_INTERVAL_MS: '-1' }, variable: 'BACKUPSTATS_FLUSH_INTERVAL_MS', shown: '"-1"', accepted: 'an integer from 0 to 2147483647' },
  { env: { ...json, BACKUPSTATS_FLUSH_INTERVAL_MS: '2.5' }, variable: 'BACKUPSTATS_FLUSH_INTERVAL_MS', shown: '"2.5"', accepted: 'an integer from 0' },
  { env: { ...json, BACKUPSTATS_MAX_SCOPES: '1' }, variable: 'BACKUPSTATS_MAX_SCOPES', shown: '"1"', accepted: 'an integer from 2' },
  { env: { ...json, BACKUPSTATS_METRIC_PREFIX: '9lives_' }, variable: 'BACKUPSTATS_METRIC_PREFIX', shown: '"9lives_"', accepted: 'a letter first' },
];

// Header values are secrets: the message shows neither them nor any fragment of the variable.
const badHeaders: BadCase[] = [
  { env: { ...json, OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20s3cr3t-1,s3cr3t-2' }, variable: 'OTEL_EXPORTER_OTLP_HEADERS', shown: undefined, accepted: 'comma-separated key=value pairs' },
  { env: { ...json, OTEL_EXPORTER_OTLP_METRICS_HEADERS: 'api-key=s3cr3t-3%E0%A4%A' }, variable: 'OTEL_EXPORTER_OTLP_METRICS_HEADERS', shown: undefined, accepted: 'percent-encoded values' },
  { env: { ...json, OTEL_EXPORTER_OTLP_HEADERS: 's3cr3t 4=x' }, variable: 'OTEL_EXPORTER_OTLP_HEADERS', shown: undefined, accepted: 'HTTP header names' },
  { env: { ...json, OTEL_EXPORTER_OTLP_HEADERS: 'x-s3cr3t-5=' }, variable: 'OTEL_EXPORTER_OTLP_HEADERS', shown: undefined, accepted: 'comma-separated key=value pairs' },
];

async function startError(env: Record<string, string>): Promise<Error> {
  try {
    const stats = await startBackupStats({ env });
    await stats.shutdown();
  } catch (error) {
    if (error instanceof Error) return error;
    throw error;
  }
  throw new Error(`startBackupStats accepted ${JSON.stringify(env)}`);
}

describe('startBackupStats rejects every invalid variable with its name, its value and what is accepted', () => {
  it.each(badValues)('$variable = $shown', async ({ env, variable, shown, accepted }) => {
    const error = await startError(env);
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toContain(`${variable} is ${shown}`);
    expect(error.message).toContain('accepted:');
    expect(error.message).toContain(accepted);
  });

  it.each(badHeaders)('$variable (a secret) is named but never shown', async ({ env, variable, accepted }) => {
    const error = await startError(env);
    expect(error.message).toContain(`${variable} is <redacted>`);
    expect(error.message).toContain(accepted);
    expect(error.message).not.toContain('s3cr3t');
    expect(String(error.stack)).not.toContain('s3cr3t');
  });
});

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

  it('BACKUPSTATS_DISABLED=false wins over OTEL_SDK_DISABLED=true', async () => {
    harness = createHarness();
    const stats = await startBackupStats({
      env: { BACKUPSTATS_DISABLED: 'false', OTEL_SDK_DISABLED: 'true' },
      meterProvider: harness.provider,
    });
    stats.backup.timedIncrementBytes(3, 1);
    expect(valuesByKey(await harness.collect()).get('backup.bytes{-,-,-}')).toBe(3);
    await stats.shutdown();
  });

  it('the disabled option wins over the variables, both ways', async () => {
    const off = await startBackupStats({ env: { OTEL_SDK_DISABLED: 'false' }, disabled: true });
    expect(off.meterProvider).toBeUndefined();
    harness = createHarness();
    const on = await startBackupStats({ env: { OTEL_SDK_DISABLED: 'true' }, disabled: false, meterProvider: harness.provider });
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
  it('gets the stats, the BACKUPSTATS_* variables apply, and nothing of it is owned or shut down', async () => {
    harness = createHarness();
    const stats = await startBackupStats({
      // Exporter variables belong to whoever built the provider: they are not read, so not even a bad one fails.
      env: { BACKUPSTATS_NAMING: 'vitess', BACKUPSTATS_METRIC_PREFIX: 'vtbackup_', OTEL_METRICS_EXPORTER: 'bogus' },
      meterProvider: harness.provider,
    });
    expect(stats.meterProvider).toBe(harness.provider);
    stats.backup.scope({ component: 'BackupStorage', implementation: 'File', operation: 'File:Write' }).timedIncrementBytes(4096, 2);
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

describe('options in code win over the environment', () => {
  it('naming, prefix, flush interval and max scopes from code beat BACKUPSTATS_*', async () => {
    harness = createHarness();
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

  it('the variables apply where code is silent', async () => {
    harness = createHarness();
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

  it('a bad option in code is reported as the option, even when a variable is set too', async () => {
    harness = createHarness();
    await expect(
      startBackupStats({ env: { BACKUPSTATS_NAMING: 'otel' }, meterProvider: harness.provider, naming: 'statsd' as never }),
    ).rejects.toThrow(/option naming is "statsd"; accepted: "otel" or "vitess"/);
  });
});
