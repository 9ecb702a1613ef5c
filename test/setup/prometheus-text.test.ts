// The Prometheus endpoint of backupstats/setup writes its own text exposition: it must be, byte for byte, what
// exporter-prometheus' serializer writes for the same collection, whatever the series hold (label text that needs
// escaping, label names and metric names that need sanitizing, values that are not finite, instruments of every
// kind), so that no series, label or value a dashboard reads changes.
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { Component, createHistogramProducer, Implementation, Operation } from 'backupstats';
import { type StartedBackupStats, startBackupStats } from 'backupstats/setup';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';

/** Stats serving the endpoint, and a second reader of exporter-prometheus on the same provider to compare with. */
async function startWithTwin(env: Record<string, string> = {}): Promise<{
  stats: StartedBackupStats;
  scrape: () => Promise<Buffer>;
  upstream: () => Promise<Buffer>;
}> {
  const port = await freePort();
  const producer = createHistogramProducer();
  const twin = new PrometheusExporter({ preventServerStart: true, metricProducers: [producer] });
  const stats = await startBackupStats({
    env: {
      OTEL_METRICS_EXPORTER: 'prometheus',
      OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
      OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
      ...env,
    },
    readers: [twin],
    histogramProducers: [producer],
  });
  onTestFinished(() => stats.shutdown());
  const serializer = new PrometheusSerializer();
  return {
    stats,
    scrape: async () => {
      const response = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain');
      return Buffer.from(await response.arrayBuffer());
    },
    // What the exporter's own handler sends: its string, encoded as UTF-8 by the HTTP response.
    upstream: async () => Buffer.from(serializer.serialize((await twin.collect()).resourceMetrics), 'utf8'),
  };
}

describe('the Prometheus endpoint writes what exporter-prometheus writes', () => {
  it('the same text for the stats with histograms, label text that needs escaping and many series', async () => {
    const { stats, scrape, upstream } = await startWithTwin({
      OTEL_SERVICE_NAME: 'job "nightly"\\n',
      OTEL_RESOURCE_ATTRIBUTES: 'host.name=db-1,deployment.environment=prod',
    });
    const odd = stats.backup.scope({
      component: Component.BackupEngine,
      implementation: 'say "hi"\\ back\nslash',
      operation: Operation.SourceRead,
    });
    odd.timedIncrementBytes(1000, 0.25);
    odd.timedIncrementBytes(24, 0);
    odd.timedIncrement(7_000);
    for (let i = 0; i < 50; i++) {
      const handle = stats.restore.scope({
        component: Component.BackupStorage,
        implementation: Implementation.S3,
        operation: `op-${i}`,
      });
      for (let k = 0; k < 20; k++) handle.timedIncrementBytes(4096 * k, 0.01 * 10 ** ((k * 7) / 20));
    }
    stats.backup
      .scope({ component: Component.BackupStorage, implementation: 'naïve ✓ 😀', operation: 'lone \ud800 half' })
      .timedIncrementBytes(1e15 + 1, 1e-9);
    stats.backup
      .scope({ component: Component.BackupStorage, implementation: Implementation.File, operation: 'largest' })
      .timedIncrementBytes(999_999_999_999_999, 123_456.789);
    const served = await scrape();
    const text = served.toString('utf8');
    expect(text).toContain('backup_bytes_total{');
    expect(text).toContain('_bucket{');
    expect(text).toContain('implementation="say \\"hi\\"\\\\ back\\nslash"');
    expect(text).toContain('implementation="naïve ✓ 😀"');
    expect(served.equals(await upstream())).toBe(true);
    // Again, after more records and with series that did not change since.
    odd.timedIncrementBytes(1, 3);
    expect((await scrape()).equals(await upstream())).toBe(true);
  });

  it('the same text for instruments of every kind on the provider, with names and labels to sanitize', async () => {
    const { stats, scrape, upstream } = await startWithTwin();
    const meter = stats.meterProvider?.getMeter('my.app', '1.2.3', { schemaUrl: 'https://example.com/schema' });
    if (meter === undefined) throw new Error('startBackupStats built no provider');
    meter.createCounter('jobs.done', { description: 'Jobs\\done\nlines', unit: '{job}' }).add(3, {
      'queue.name': 'a"b',
      'weird--key..x': 1,
      ok: true,
      list: ['x', 'y'],
    });
    meter.createCounter('already_total').add(1);
    meter.createUpDownCounter('9lives').add(-2, { state: 'x' });
    meter.createGauge('temperature', { unit: 'Cel' }).record(Number.NaN, { where: 'in' });
    meter.createGauge('reach').record(Number.POSITIVE_INFINITY);
    meter.createGauge('depth').record(Number.NEGATIVE_INFINITY);
    const histogram = meter.createHistogram('request.size', { advice: { explicitBucketBoundaries: [1, 10, 100] } });
    for (const value of [0, 5, 50, 500, 5000]) histogram.record(value, { route: '/x' });
    meter.createHistogram('no.records');
    meter.createObservableGauge('-').addCallback((result) => result.observe(1));
    const served = await scrape();
    const text = served.toString('utf8');
    expect(text).toContain('jobs_done_total{');
    expect(text).toContain('_9lives{');
    expect(text).toContain('request_size_bucket{');
    expect(text).toBe((await upstream()).toString('utf8'));
    expect(served.equals(await upstream())).toBe(true);
  });
});
