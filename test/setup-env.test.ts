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
import { points, valuesByKey } from './support/harness.js';
import { it } from './support/fixtures.js';

interface BadCase {
  readonly env: Record<string, string>;
  readonly variable: string;
  /** The text the message must show as the value (the raw value, quoted), or undefined for secrets. */
  readonly shown: string | undefined;
  /** A fragment of the accepted values that the message must contain. */
  readonly accepted: string;
  /** What is wrong, for the test's name when the value is a secret. */
  readonly what?: string;
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
  { env: { ...json, BACKUPSTATS_MAX_SCOPES: '1' }, variable: 'BACKUPSTATS_MAX_SCOPES', shown: '"1"', accepted: 'an integer of 2 or more' },
  { env: { ...json, BACKUPSTATS_METRIC_PREFIX: '9lives_' }, variable: 'BACKUPSTATS_METRIC_PREFIX', shown: '"9lives_"', accepted: 'a letter first' },
];

// Header values are secrets: the message shows neither them nor any fragment of the variable.
const badHeaders: BadCase[] = [
  { env: { ...json, OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20s3cr3t-1,s3cr3t-2' }, variable: 'OTEL_EXPORTER_OTLP_HEADERS', shown: undefined, accepted: 'comma-separated key=value pairs', what: 'an entry without "="' },
  { env: { ...json, OTEL_EXPORTER_OTLP_METRICS_HEADERS: 'api-key=s3cr3t-3%E0%A4%A' }, variable: 'OTEL_EXPORTER_OTLP_METRICS_HEADERS', shown: undefined, accepted: 'percent-encoded values', what: 'a malformed escape' },
  { env: { ...json, OTEL_EXPORTER_OTLP_HEADERS: 's3cr3t 4=x' }, variable: 'OTEL_EXPORTER_OTLP_HEADERS', shown: undefined, accepted: 'HTTP header names', what: 'a key with a space' },
  { env: { ...json, OTEL_EXPORTER_OTLP_HEADERS: 'x-s3cr3t-5=' }, variable: 'OTEL_EXPORTER_OTLP_HEADERS', shown: undefined, accepted: 'comma-separated key=value pairs', what: 'an empty value' },
];

// Values that no HTTP stack or gRPC metadata accepts. Each must be rejected at set-up (not fail every export
// later), over every protocol, and no dependency may get to quote it in its own error.
const grpc = { OTEL_METRICS_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' };
const protobuf = { OTEL_METRICS_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' };
const badHeaderValues = [
  ['a non-ASCII letter', 'authorization=Bearer%20s3cr3t-t%C3%B6ken'],
  ['a euro sign', 'authorization=Bearer%20s3cr3t%E2%82%AC'],
  ['CR LF (header injection)', 'authorization=Bearer%20s3cr3t%0D%0Ax-evil:%201'],
  ['a newline', 'authorization=Bearer%20s3cr3t%0Atoken'],
  ['a tab', 'authorization=Bearer%09s3cr3t'],
  ['another control character', 'authorization=Bearer%20s3cr3t%01'],
  ['DEL', 'authorization=Bearer%20s3cr3t%7F'],
] as const;
for (const [what, headers] of badHeaderValues) {
  for (const [protocol, base] of [['http/json', json], ['http/protobuf', protobuf], ['grpc', grpc]] as const) {
    const variable = what === 'a newline' ? 'OTEL_EXPORTER_OTLP_METRICS_HEADERS' : 'OTEL_EXPORTER_OTLP_HEADERS';
    badHeaders.push({ env: { ...base, [variable]: headers }, variable, shown: undefined, accepted: 'printable ASCII', what: `${what} over ${protocol}` });
  }
}
// gRPC metadata keys are stricter than HTTP header names: lower-case letters, digits, "_", "." and "-" only,
// "-bin" keys carry binary values and "grpc-" keys are reserved.
for (const [what, headers] of [
  ['a key ending in -bin', 'auth-bin=s3cr3t'],
  ['a reserved grpc- key', 'grpc-s3cr3t=x'],
  ['a key with a character gRPC refuses', 'x!s3cr3t=y'],
] as const) {
  badHeaders.push({ env: { ...grpc, OTEL_EXPORTER_OTLP_HEADERS: headers }, variable: 'OTEL_EXPORTER_OTLP_HEADERS', shown: undefined, accepted: 'gRPC metadata keys', what });
}

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

  it.for(badHeaders)('$variable (a secret) with $what is named but never shown', async ({ env, variable, accepted }, { diagnostics }) => {
    const error = await startError(env);
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toContain(`${variable} is <redacted>`);
    expect(error.message).toContain(accepted);
    // Not in the message, the stack, any cause, nor anything logged on the way.
    for (let e: unknown = error; e !== undefined; e = (e as Error).cause) {
      expect(String((e as Error).message)).not.toContain('s3cr3t');
      expect(String((e as Error).stack)).not.toContain('s3cr3t');
    }
    expect(diagnostics.messages.join('\n')).not.toContain('s3cr3t');
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
  it('gets the stats, the BACKUPSTATS_* variables apply, and nothing of it is owned or shut down', async ({ harness }) => {
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

describe('an instrument that throws at shutdown', () => {
  it("rejects the stats' shutdown, and the given provider is still asked to export what it holds", async ({ diagnostics }) => {
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const real = new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 2 ** 30 })] });
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
      startBackupStats({ env: { BACKUPSTATS_NAMING: 'otel' }, meterProvider: harness.provider, naming: 'statsd' as never }),
    ).rejects.toThrow(/option naming is "statsd"; accepted: "otel" or "vitess"/);
  });
});
