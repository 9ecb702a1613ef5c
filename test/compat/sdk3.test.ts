// Compatibility: the same end-to-end scenarios with the OpenTelemetry JS 3.x line on Node 22 (installed as
// test/support/sdk3-install.ts says): OTLP over every protocol, runs, histograms, a scrape by a real Prometheus.
// The end of a job on that line is sdk3-exit.test.ts; the rest of the suite covers the 2.x line on Node 20.
import { RUN_DURATION_BOUNDARIES } from 'backupstats';
import { afterAll, describe, expect } from 'vitest';
import type { ScopeTotal } from '../fixtures/workload.mjs';
import { expectedSeries, expectScraped, mismatches } from '../support/e2e-expected.js';
import { it } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';
import { nodeExporterBinary } from '../support/node-exporter.js';
import { type PrometheusServer, prometheusBinary, requireE2E, startPrometheus } from '../support/prometheus.js';
import { groupMismatches, sampleValue } from '../support/pushgateway/group-series.js';
import { latestHistogram } from '../support/received-histograms.js';
import { histogramPoint, latest, RUN_JOB_VERIFY_AND_PRUNE, verifyAndPruneOfRunJob } from '../support/received-runs.js';
import { expectNode22WithSdk3, HANG_MS, runSdk3, useSdk3Install } from '../support/sdk3-install.js';

describe.skipIf(!runSdk3)('with @opentelemetry/sdk-metrics 3.x on Node 22', () => {
  const { job } = useSdk3Install();

  const protocols = [
    { protocol: 'http/protobuf', transport: 'http' },
    { protocol: 'http/json', transport: 'http' },
    { protocol: 'grpc', transport: 'grpc' },
  ] as const;
  for (const { protocol, transport } of protocols) {
    it(`OTLP ${protocol}: exact totals and resource after a normal end`, async ({ startReceiver }) => {
      const receiver = await startReceiver(transport);
      const child = job({
        OTEL_METRICS_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        OTEL_METRIC_EXPORT_INTERVAL: '200',
        OTEL_SERVICE_NAME: 'nightly-backup',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=staging',
        FIXTURE_BATCHES: '40',
        FIXTURE_PAUSE_MS: '5',
        // gRPC also carries the latency histograms in base-2 exponential buckets; the others in explicit ones.
        ...(protocol === 'grpc'
          ? { OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION: 'base2_exponential_bucket_histogram' }
          : {}),
      });
      await expectNode22WithSdk3(child);
      const recorded = await child.waitForEvent('totals');
      expect(await child.exited(), child.stderr()).toEqual({ code: 0, signal: null });
      expect(mismatches(expectedSeries(recorded.totals as ScopeTotal[], 'otel'), receiver.totals())).toEqual([]);
      expect(receiver.exports.every((e) => e.protocol === protocol)).toBe(true);
      expect(receiver.resource()).toMatchObject({
        'service.name': 'nightly-backup',
        'deployment.environment.name': 'staging',
      });
      // Every scope's latency histogram: count and sum of what was recorded, in the aggregation asked for.
      for (const total of recorded.totals as ScopeTotal[]) {
        const point = latestHistogram(receiver, `${total.family}.operation.duration`, total.operation);
        expect(point?.kind, total.operation).toBe(protocol === 'grpc' ? 'exponential' : 'explicit');
        expect(point?.count, total.operation).toBe(total.count);
        expect(point?.sum, total.operation).toBeCloseTo(total.ms / 1000, 9);
      }
    });
  }

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`end of job by ${signal} mid-loop: the final totals arrive and the exit is conventional`, async ({
      startReceiver,
    }) => {
      const receiver = await startReceiver('http');
      const child = job({
        OTEL_METRICS_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
        OTEL_METRIC_EXPORT_INTERVAL: '600000',
        BACKUPSTATS_NAMING: 'vitess',
        FIXTURE_BATCHES: '1000000000',
      });
      await expectNode22WithSdk3(child);
      await child.waitForEvent('recording');
      child.child.kill(signal);
      const recorded = await child.waitForEvent('totals');
      const end = await child.exited();
      const shellCode = signal === 'SIGTERM' ? 143 : 130;
      expect(end.signal === signal || end.code === shellCode, `exit ${JSON.stringify(end)}\n${child.stderr()}`).toBe(
        true,
      );
      expect(recorded.finished).toBe(false);
      expect(mismatches(expectedSeries(recorded.totals as ScopeTotal[], 'vitess'), receiver.totals())).toEqual([]);
    });
  }

  it('a run in progress at SIGTERM: an interrupted failure in the final export, durations in the advised buckets', async ({
    startReceiver,
  }) => {
    const receiver = await startReceiver('http');
    const child = job(
      {
        OTEL_METRICS_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
        OTEL_METRIC_EXPORT_INTERVAL: '600000',
      },
      'run-job.mjs',
    );
    await child.waitForEvent('ready');
    child.child.kill('SIGTERM');
    const end = await child.exited(HANG_MS);
    expect(end.signal === 'SIGTERM' || end.code === 143, `exit ${JSON.stringify(end)}\n${child.stderr()}`).toBe(true);
    const labels = { component: 'BackupEngine', implementation: 'Builtin', operation: 'Backup' };
    expect(latest(receiver, 'backup.runs', { ...labels, outcome: 'success' })).toBe(1);
    expect(latest(receiver, 'backup.runs', { ...labels, outcome: 'failure', 'error.type': 'interrupted' })).toBe(1);
    expect(latest(receiver, 'backup.runs', { ...labels, outcome: 'failure', 'error.type': 'source' })).toBe(1);
    expect(latest(receiver, 'backup.last_success.bytes', labels)).toBe(4096);
    expect(histogramPoint(receiver, 'backup.run.duration', 'failure')).toEqual({
      count: 2,
      bounds: [...RUN_DURATION_BOUNDARIES],
    });
    expect(verifyAndPruneOfRunJob(receiver)).toEqual(RUN_JOB_VERIFY_AND_PRUNE);
  });

  describe.skipIf(!prometheusBinary && !requireE2E)('scraped by a real Prometheus', () => {
    const namings = [
      { naming: 'otel', prefix: '', env: {} },
      {
        naming: 'vitess',
        prefix: 'vtbackup_',
        env: { BACKUPSTATS_NAMING: 'vitess', BACKUPSTATS_METRIC_PREFIX: 'vtbackup_' },
      },
    ] as const;
    // One Prometheus scrapes the jobs of both namings, each on a port of its own: their metric names differ, so each
    // test's queries see only its own job's series.
    let scraping: Promise<{ server: PrometheusServer; ports: number[] }> | undefined;
    const prometheus = (): Promise<{ server: PrometheusServer; ports: number[] }> => {
      scraping ??= (async () => {
        const ports: number[] = [];
        while (ports.length < namings.length) {
          const port = await freePort();
          if (!ports.includes(port)) ports.push(port);
        }
        return { server: await startPrometheus(ports.map((port) => `127.0.0.1:${port}`)), ports };
      })();
      return scraping;
    };
    afterAll(async () => {
      await (await scraping?.catch(() => undefined))?.server.stop();
    });
    for (const [index, { naming, prefix, env }] of namings.entries()) {
      it(`${naming} naming: exact totals per scope under the same Prometheus names`, async () => {
        const { server, ports } = await prometheus();
        const port = ports[index] as number;
        const child = job({
          OTEL_METRICS_EXPORTER: 'prometheus',
          OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
          OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
          FIXTURE_BATCHES: '60',
          FIXTURE_AFTER: 'hold',
          ...env,
        });
        await expectNode22WithSdk3(child);
        const recorded = await child.waitForEvent('totals');
        await expectScraped(server, expectedSeries(recorded.totals as ScopeTotal[], naming, prefix));
        child.child.kill('SIGTERM');
        const end = await child.exited();
        expect(end.signal === 'SIGTERM' || end.code === 143, `exit ${JSON.stringify(end)}`).toBe(true);
      });
    }
  });
  it.skipIf(!nodeExporterBinary && !requireE2E)(
    'textfile from the environment, ended by SIGTERM mid-loop: the final write holds the exact totals node_exporter serves',
    async ({ startNodeExporter }) => {
      const node = await startNodeExporter();
      const child = job({
        OTEL_METRICS_EXPORTER: 'textfile',
        BACKUPSTATS_TEXTFILE_PATH: `${node.dir}/nightly.prom`,
        OTEL_SERVICE_NAME: 'nightly',
        // The export deadline is the interval when that is shorter than the default timeout, and the job is ended
        // before its first periodic write, so the final write is its first, with the modules it loads: at a load
        // average of 10 it overran 200 ms once and wrote no file (as it does here under a 5 ms interval).
        OTEL_METRIC_EXPORT_INTERVAL: '2000',
        FIXTURE_BATCHES: '100000',
        FIXTURE_PAUSE_MS: '5',
      });
      await expectNode22WithSdk3(child);
      await child.waitForEvent('recording');
      child.child.kill('SIGTERM');
      const recorded = await child.waitForEvent('totals');
      expect(await child.exited(), child.stderr()).toEqual({ code: null, signal: 'SIGTERM' });
      const samples = await node.samples();
      const expected = expectedSeries(recorded.totals as ScopeTotal[], 'otel');
      expect(groupMismatches(samples, { service_name: 'nightly' }, expected)).toEqual([]);
      expect(sampleValue(samples, 'node_textfile_scrape_error', {})).toBe(0);
    },
  );
});
