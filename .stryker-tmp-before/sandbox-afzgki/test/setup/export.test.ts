// @ts-nocheck
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { Component, Implementation, Operation } from 'backupstats';
import { startBackupStats } from 'backupstats/setup';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import type { ReceivedPoint } from '../support/otlp-receiver.js';

const READ = {
  component: Component.BackupEngine,
  implementation: Implementation.Builtin,
  operation: Operation.SourceRead,
};

/** The points of `metric` for the Source:Read scope in one export. */
function readPoints(points: readonly ReceivedPoint[], metric: string): ReceivedPoint[] {
  return points.filter((p) => p.metric === metric && p.attributes.operation === Operation.SourceRead);
}

describe('OTLP export configured from the environment', () => {
  it('with only OTEL_EXPORTER_OTLP_ENDPOINT set: the default otlp exporter over http/protobuf, cumulative, and shutdown sends the final numbers', async ({
    startReceiver,
    startFromEnv,
  }) => {
    const r = await startReceiver();
    // A trailing slash on the general endpoint must not give "//v1/metrics".
    const stats = await startFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: `${r.url}/` });
    expect(stats.meterProvider).toBeDefined();
    const read = stats.backup.scope(READ);
    read.timedIncrementBytes(1000, 2);
    read.timedIncrementBytes(24, 3);
    expect(r.exports).toHaveLength(0);

    await stats.shutdown();
    expect(r.exports.length).toBeGreaterThan(0);
    const last = r.exports[r.exports.length - 1];
    expect(last?.protocol).toBe('http/protobuf');
    const [bytes] = readPoints(last?.points ?? [], 'backup.bytes');
    expect(bytes?.value).toBe(1024);
    expect(bytes?.temporality).toBe(2);
    expect(readPoints(last?.points ?? [], 'backup.operations')[0]?.value).toBe(2);
    expect(readPoints(last?.points ?? [], 'backup.time')[0]?.value).toBeCloseTo(0.005, 12);
    expect(String(r.resource()['service.name'])).toMatch(/^unknown_service/);
  });

  it('http/json: the metric-specific endpoint and headers win, headers merge key by key (names in any case), and the resource comes from OTEL_SERVICE_NAME / OTEL_RESOURCE_ATTRIBUTES', async ({
    startReceiver,
    startFromEnv,
  }) => {
    const r = await startReceiver();
    const stats = await startFromEnv({
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'http/json',
      // Nothing listens there: the metric-specific endpoint, used as it is, must win.
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: `${r.url}/v1/metrics`,
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20t0ken,X-Tenant=general',
      OTEL_EXPORTER_OTLP_METRICS_HEADERS: 'x-tenant=team%20a',
      OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attributes,deployment.environment=ci,note=a%2Cb%3Dc',
      OTEL_SERVICE_NAME: 'nightly-backup',
    });
    stats.restore.scope({ operation: Operation.Restore }).timedIncrement(1500);
    await stats.shutdown();

    const last = r.exports[r.exports.length - 1];
    expect(last?.protocol).toBe('http/json');
    expect(last?.headers.authorization).toBe('Bearer t0ken');
    expect(last?.headers['x-tenant']).toBe('team a');
    expect(r.resource()).toMatchObject({
      'service.name': 'nightly-backup',
      'deployment.environment': 'ci',
      note: 'a,b=c',
    });
    const operations = last?.points.find(
      (p) => p.metric === 'restore.operations' && p.attributes.operation === 'Restore',
    );
    expect(operations?.value).toBe(1);
  });

  it('forceFlush exports what is pending at once; with delta temporality the final export carries only the rest', async ({
    startReceiver,
    startFromEnv,
  }) => {
    const r = await startReceiver();
    const stats = await startFromEnv({
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_ENDPOINT: r.url,
      OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE: 'Delta',
    });
    const read = stats.backup.scope(READ);
    read.timedIncrementBytes(5, 1);
    await stats.forceFlush();
    expect(r.exports).toHaveLength(1);
    const first = readPoints(r.exports[0]?.points ?? [], 'backup.bytes');
    expect(first.map((p) => [p.value, p.temporality])).toEqual([[5, 1]]);

    read.timedIncrementBytes(7, 1);
    await stats.shutdown();
    const last = r.exports[r.exports.length - 1];
    expect(readPoints(last?.points ?? [], 'backup.bytes').map((p) => [p.value, p.temporality])).toEqual([[7, 1]]);
    // shutdown is idempotent: no further export.
    const count = r.exports.length;
    await stats.shutdown();
    expect(r.exports).toHaveLength(count);
  });

  it('grpc: the totals and the headers (as gRPC metadata) reach the receiver', async ({
    startReceiver,
    startFromEnv,
  }) => {
    const r = await startReceiver('grpc');
    const stats = await startFromEnv({
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_EXPORTER_OTLP_ENDPOINT: r.url,
      OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=k3y',
      BACKUPSTATS_NAMING: 'vitess',
    });
    stats.backup.scope(READ).timedIncrementBytes(4096, 1.5);
    await stats.shutdown();
    const last = r.exports[r.exports.length - 1];
    expect(last?.protocol).toBe('grpc');
    expect(last?.headers['x-api-key']).toBe('k3y');
    expect(readPoints(last?.points ?? [], 'backup_bytes')[0]?.value).toBe(4096);
    expect(readPoints(last?.points ?? [], 'backup_duration_nanoseconds')[0]?.value).toBe(1_500_000);
  });

  it('readers given in code join the provider built from the environment, and are shut down with it', async ({
    startReceiver,
  }) => {
    const r = await startReceiver();
    const memory = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter: memory, exportIntervalMillis: 2 ** 30 });
    const stats = await startBackupStats({
      env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_ENDPOINT: r.url },
      readers: [reader],
    });
    stats.backup.scope(READ).timedIncrementBytes(99, 1);
    await stats.shutdown();
    const bytes = memory
      .getMetrics()
      .flatMap((m) => m.scopeMetrics.flatMap((sm) => sm.metrics))
      .filter((m) => m.descriptor.name === 'backup.bytes')
      .flatMap((m) => m.dataPoints.map((p) => p.value));
    expect(bytes.at(-1)).toBe(99);
    expect(readPoints(r.exports.at(-1)?.points ?? [], 'backup.bytes')[0]?.value).toBe(99);
    // Shut down with the provider: a shut-down reader refuses to collect.
    await expect(reader.collect()).rejects.toThrow();
  });

  it('readers together with an existing meterProvider are rejected', async () => {
    const memory = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter: memory, exportIntervalMillis: 2 ** 30 });
    const provider = new MeterProvider();
    onTestFinished(() => provider.shutdown());
    await expect(startBackupStats({ env: {}, meterProvider: provider, readers: [reader] })).rejects.toThrow(
      /option readers is 1 reader \(set together with meterProvider\); accepted: /,
    );
  });

  it('an explicit meterProvider: undefined (what sdk.meterProvider gives: NodeSDK has no such property) is rejected instead of building a second provider', async () => {
    const options = { env: { OTEL_METRICS_EXPORTER: 'console' }, meterProvider: undefined };
    //  the type says so too: leave the option out to build a provider from the environment.
    const starting = startBackupStats(options);
    starting.then((stats) => onTestFinished(() => stats.shutdown())).catch(() => {});
    await expect(starting).rejects.toThrow(TypeError);
    await expect(starting).rejects.toThrow(
      'backupstats: option meterProvider is undefined; accepted: a MeterProvider (with the OpenTelemetry NodeSDK, metrics.getMeterProvider() from @opentelemetry/api after sdk.start(): NodeSDK has no meterProvider property), or no meterProvider option, to build a provider from the environment',
    );
  });

  it('OTEL_METRICS_EXPORTER=none builds a provider without readers: nothing is sent', async ({
    startReceiver,
    startFromEnv,
  }) => {
    const r = await startReceiver();
    const stats = await startFromEnv({ OTEL_METRICS_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: r.url });
    expect(stats.meterProvider).toBeDefined();
    stats.backup.timedIncrementBytes(1, 1);
    await stats.forceFlush();
    await stats.shutdown();
    expect(r.exports).toHaveLength(0);
  });
});

/** Value of the series `name` whose labels include every `labels` pair, from a Prometheus text scrape. */
