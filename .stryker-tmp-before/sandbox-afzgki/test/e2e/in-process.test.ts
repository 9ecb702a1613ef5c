// @ts-nocheck
// End-to-end through a MeterProvider built here with the official exporters (no set-up entry point): the
// library's numbers reach a real Prometheus and a receiver that decodes the OTLP wire format with the
// official definitions. It also proves the test infrastructure the child-process scenarios rely on.
import { OTLPMetricExporter as GrpcExporter } from '@opentelemetry/exporter-metrics-otlp-grpc';
import { OTLPMetricExporter as JsonExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { createBackupStats } from 'backupstats';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createWorkload } from '../fixtures/workload.mjs';
import { expectedSeries, matches } from '../support/e2e-expected.js';
import { freePort } from '../support/free-port.js';
import { type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver.js';
import { type PrometheusServer, prometheusBinary, requireE2E, startPrometheus } from '../support/prometheus.js';
import { seriesKey } from '../support/series-key.js';

describe.skipIf(!prometheusBinary && !requireE2E)('in-process provider scraped by a real Prometheus', () => {
  it('Prometheus holds the exact totals per scope', async () => {
    const port = await freePort();
    const exporter = new PrometheusExporter({ host: '127.0.0.1', port });
    const provider = new MeterProvider({ readers: [exporter] });
    onTestFinished(() => provider.shutdown());
    const stats = createBackupStats({ meterProvider: provider, flushIntervalMillis: 200 });
    const workload = createWorkload(stats);
    for (let batch = 0; batch < 50; batch++) workload.recordBatch(batch);

    const prometheus: PrometheusServer = await startPrometheus([`127.0.0.1:${port}`]);
    onTestFinished(() => prometheus.stop());

    const expected = expectedSeries(workload.totals(), 'otel');
    for (const series of expected) {
      const promName = `${series.metric.replaceAll('.', '_')}_total`;
      const selector = `${promName}{component="${series.labels.component}",implementation="${series.labels.implementation}",operation="${series.labels.operation}"}`;
      const samples = await prometheus.waitForSamples(selector);
      expect(samples, selector).toHaveLength(1);
      expect(matches(series, samples[0]?.value), `${selector} = ${samples[0]?.value}, expected ${series.value}`).toBe(
        true,
      );
    }
    await stats.shutdown();
  });
});

describe('in-process provider exporting OTLP to a decoding receiver', () => {
  const cases: { protocol: string; transport: 'http' | 'grpc'; make: (url: string) => PushMetricExporter }[] = [
    { protocol: 'http/protobuf', transport: 'http', make: (url) => new ProtoExporter({ url: `${url}/v1/metrics` }) },
    { protocol: 'http/json', transport: 'http', make: (url) => new JsonExporter({ url: `${url}/v1/metrics` }) },
    { protocol: 'grpc', transport: 'grpc', make: (url) => new GrpcExporter({ url }) },
  ];
  for (const { protocol, transport, make } of cases) {
    it(`${protocol}: exact cumulative totals and resource attributes`, async () => {
      const receiver: OtlpReceiver = await startOtlpReceiver(transport);
      onTestFinished(() => receiver.stop());
      const reader = new PeriodicExportingMetricReader({ exporter: make(receiver.url), exportIntervalMillis: 2 ** 30 });
      const provider = new MeterProvider({
        readers: [reader],
        resource: resourceFromAttributes({ 'service.name': 'inprocess-job', 'deployment.environment.name': 'test' }),
      });
      onTestFinished(() => provider.shutdown());
      const stats = createBackupStats({ meterProvider: provider, naming: 'vitess', metricPrefix: 'vtbackup_' });
      const workload = createWorkload(stats);
      for (let batch = 0; batch < 20; batch++) workload.recordBatch(batch);
      await provider.forceFlush();
      for (let batch = 20; batch < 30; batch++) workload.recordBatch(batch);
      await stats.shutdown();
      await provider.forceFlush();

      const totals = receiver.totals();
      for (const series of expectedSeries(workload.totals(), 'vitess', 'vtbackup_')) {
        const key = seriesKey(series.metric, series.labels);
        expect(totals.get(key), key).toBe(series.value);
      }
      expect(receiver.exports.every((e) => e.protocol === protocol)).toBe(true);
      expect(receiver.resource()).toMatchObject({
        'service.name': 'inprocess-job',
        'deployment.environment.name': 'test',
      });
    });
  }
});
