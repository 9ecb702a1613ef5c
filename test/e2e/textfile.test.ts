// Jobs that write a file for node_exporter's textfile collector (Debian's prometheus-node-exporter, 1.5.0, with only
// that collector), scraped by a real Prometheus: two jobs of one host at the same time, each in its own file, and a
// job run again after an interrupted run. On this path `job` and `instance` are node_exporter's, the same for both
// files: the series tell the jobs apart by `service_name`, from OTEL_SERVICE_NAME.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import type { ScopeTotal } from '../fixtures/workload.mjs';
import { type ExpectedSeries, expectedSeries, matches, PROMETHEUS_NAMES } from '../support/e2e-expected.js';
import { it } from '../support/fixtures.js';
import { nodeExporterBinary } from '../support/node-exporter.js';
import { type PrometheusServer, prometheusBinary, requireE2E } from '../support/prometheus.js';
import { groupMismatches, sampleValue } from '../support/pushgateway/group-series.js';

const recordJob = fileURLToPath(new URL('../fixtures/record-job.mjs', import.meta.url));
const oneRunJob = fileURLToPath(new URL('../fixtures/one-run-job.mjs', import.meta.url));
const skip = (!nodeExporterBinary || !prometheusBinary) && !requireE2E;

/** Waits until Prometheus holds every expected series of `service` with its exact value; returns what differs. */
async function scrapedMismatches(
  prometheus: PrometheusServer,
  service: string,
  expected: readonly ExpectedSeries[],
): Promise<string[]> {
  const names = [...new Set(expected.map((series) => PROMETHEUS_NAMES[series.metric] ?? series.metric))];
  const query = `{__name__=~"${names.join('|')}",service_name="${service}"}`;
  const differences = (samples: Awaited<ReturnType<PrometheusServer['query']>>): string[] =>
    expected.flatMap((series) => {
      const name = PROMETHEUS_NAMES[series.metric] ?? series.metric;
      const found = samples.filter(
        (s) =>
          s.metric.__name__ === name &&
          Object.entries(series.labels).every(([label, value]) => s.metric[label] === value),
      );
      return found.length === 1 && matches(series, found[0]?.value)
        ? []
        : [`${name}${JSON.stringify(series.labels)}: ${JSON.stringify(found.map((s) => s.value))}`];
    });
  const samples = await prometheus
    .waitForSamples(query, (now) => differences(now).length === 0)
    .catch(() => prometheus.query(query));
  const extra = samples.length - expected.length;
  return [...differences(samples), ...(extra === 0 ? [] : [`${extra} series more than expected`])];
}

describe.skipIf(skip)('jobs writing files for node_exporter, scraped by a real Prometheus', () => {
  it('two jobs at once, each with its own service name and file: exact totals per job on Prometheus, node_textfile_scrape_error 0, files of mode 0644 and no temporary file left', async ({
    startNodeExporter,
    startPrometheus,
    startFixture,
  }) => {
    const node = await startNodeExporter();
    const prometheus = await startPrometheus([node.address]);
    const job = (service: string, batches: string) =>
      startFixture(recordJob, {
        OTEL_METRICS_EXPORTER: 'textfile',
        BACKUPSTATS_TEXTFILE_PATH: join(node.dir, `${service}.prom`),
        OTEL_SERVICE_NAME: service,
        // Both write while the other one writes too. The interval bounds the final export (a timeout cannot exceed
        // it), and a write syncs the file and its folder to the disk: a second, for a machine busy with the other
        // test files (300 ms was once not enough there).
        OTEL_METRIC_EXPORT_INTERVAL: '1000',
        OTEL_METRIC_EXPORT_TIMEOUT: '1000',
        BACKUPSTATS_HISTOGRAMS: 'true',
        FIXTURE_BATCHES: batches,
        FIXTURE_PAUSE_MS: '20',
      });
    const [a, b] = [job('db-a', '40'), job('db-b', '60')];
    const [recordedA, recordedB] = await Promise.all([a.waitForEvent('totals'), b.waitForEvent('totals')]);
    expect(await a.exited(), a.stderr()).toEqual({ code: 0, signal: null });
    expect(await b.exited(), b.stderr()).toEqual({ code: 0, signal: null });
    expect(a.stderr() + b.stderr()).toBe('');

    const expectedA = expectedSeries(recordedA.totals as ScopeTotal[], 'otel');
    const expectedB = expectedSeries(recordedB.totals as ScopeTotal[], 'otel');
    // What node_exporter serves: each job's exact totals under its service_name, and no error reading the files.
    const served = await node.samples();
    expect(groupMismatches(served, { service_name: 'db-a' }, expectedA)).toEqual([]);
    expect(groupMismatches(served, { service_name: 'db-b' }, expectedB)).toEqual([]);
    expect(sampleValue(served, 'node_textfile_scrape_error', {})).toBe(0);
    // On Prometheus: the same, with node_exporter's job and instance on every series.
    expect(await scrapedMismatches(prometheus, 'db-a', expectedA)).toEqual([]);
    expect(await scrapedMismatches(prometheus, 'db-b', expectedB)).toEqual([]);
    const bytes = await prometheus.query('backup_bytes_total');
    expect(new Set(bytes.map((s) => `${s.metric.job} ${s.metric.instance}`))).toEqual(
      new Set([`backupstats ${node.address}`]),
    );
    const errors = await prometheus.waitForSamples('max_over_time(node_textfile_scrape_error[1h])');
    expect(errors.map((s) => s.value)).toEqual([0]);
    const mtimes = await prometheus.waitForSamples('node_textfile_mtime_seconds', (s) => s.length === 2);
    expect(mtimes.map((s) => s.metric.file).sort()).toEqual([join(node.dir, 'db-a.prom'), join(node.dir, 'db-b.prom')]);

    // Readable by node_exporter's own user, and nothing but the two files in the directory.
    for (const name of ['db-a.prom', 'db-b.prom']) expect(statSync(join(node.dir, name)).mode & 0o777).toBe(0o644);
    expect(readdirSync(node.dir).sort()).toEqual(['db-a.prom', 'db-b.prom']);
  });

  it('a job run again: the first run’s last success stays on Prometheus while the next run is in progress and after it is interrupted by SIGTERM, which the file shows as a failure', async ({
    startNodeExporter,
    startPrometheus,
    startFixture,
  }) => {
    const node = await startNodeExporter();
    const prometheus = await startPrometheus([node.address]);
    const path = join(node.dir, 'nightly.prom');
    const run = (outcome: string, bytes = '4096') =>
      startFixture(oneRunJob, {
        OTEL_METRICS_EXPORTER: 'textfile',
        BACKUPSTATS_TEXTFILE_PATH: path,
        OTEL_SERVICE_NAME: 'nightly',
        FIXTURE_OUTCOME: outcome,
        FIXTURE_BYTES: bytes,
      });
    const backup = 'service_name="nightly",operation="Backup"';
    const value = async (query: string) => (await prometheus.query(query))[0]?.value;

    const first = run('success');
    expect(await first.exited(), first.stderr()).toEqual({ code: 0, signal: null });
    const [success] = await prometheus.waitForSamples(`backup_last_success_timestamp{${backup}}`);
    expect(await value(`backup_last_success_bytes{${backup}}`)).toBe(4096);

    // The second run has pushed its first file (forceFlush): no success of its own yet, the first one's is carried.
    const second = run('hold');
    await second.waitForEvent('running');
    await prometheus.waitForSamples(`backup_runs_total{${backup},outcome="success"} == 0`);
    expect(await value(`backup_last_success_timestamp{${backup}}`)).toBe(success?.value);
    expect(await value(`backup_last_success_bytes{${backup}}`)).toBe(4096);
    expect(await value(`backup_last_failure_timestamp{${backup}}`)).toBeUndefined();

    second.child.kill('SIGTERM');
    expect(await second.exited(), second.stderr()).toEqual({ code: null, signal: 'SIGTERM' });
    // The final write says the run was interrupted; the first run's success is still there, on Prometheus too.
    const [failure] = await prometheus.waitForSamples(`backup_last_failure_timestamp{${backup}}`);
    expect(failure?.value).toBeGreaterThan(success?.value ?? Number.POSITIVE_INFINITY);
    expect(await value(`backup_runs_total{${backup},outcome="failure",error_type="interrupted"}`)).toBe(1);
    expect(await value(`backup_last_success_timestamp{${backup}}`)).toBe(success?.value);
    expect(await value(`backup_last_success_bytes{${backup}}`)).toBe(4096);
    // One series each: the carried one is the same series as the one the first run wrote.
    expect(await prometheus.query(`backup_last_success_timestamp{service_name="nightly"}`)).toHaveLength(1);

    // A third run succeeds with 8192 bytes: its own success replaces the carried one; the failure stays, older.
    const third = run('success', '8192');
    expect(await third.exited(), third.stderr()).toEqual({ code: 0, signal: null });
    await prometheus.waitForSamples(`backup_last_success_bytes{${backup}} == 8192`);
    const text = readFileSync(path, 'utf8');
    expect(text).toMatch(/^backup_last_failure_timestamp\{.*service_name="nightly".*\} \S+$/m);
    expect(await value(`backup_last_failure_timestamp{${backup}}`)).toBe(failure?.value);
    expect(await value(`max_over_time(node_textfile_scrape_error[1h])`)).toBe(0);
  });
});
