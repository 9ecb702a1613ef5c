// Jobs that push to the real Pushgateway (1.5.1): configured from the environment alone, or through
// createPushgatewayExporter with a MeterProvider of their own. The group holds the exact totals under the grouping
// key the docs promise, basic authentication works without the password ever being shown, and a refused push (4xx)
// is reported once, quoting the answer, while the job goes on.
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { createBackupStats, createHistogramProducer } from 'backupstats';
import { createPushgatewayExporter } from 'backupstats/pushgateway';
import { describe, expect } from 'vitest';
import type { ScopeTotal } from '../fixtures/workload.mjs';
import { createWorkload } from '../fixtures/workload.mjs';
import { expectedSeries, mismatches } from '../support/e2e-expected.js';
import { it } from '../support/fixtures.js';
import { requireE2E } from '../support/prometheus.js';
import { groupMismatches, groupSamples, sampleValue } from '../support/pushgateway/group-series.js';
import { pushgatewayBinary } from '../support/pushgateway/server.js';

const fixture = fileURLToPath(new URL('../fixtures/record-job.mjs', import.meta.url));

/** A user "pusher" whose password is s3cret-pass (bcrypt, cost 4, made once with libxcrypt). */
const PUSHER = {
  user: 'pusher',
  password: 's3cret-pass',
  bcrypt: '$2b$04$abcdefghijklmnopqrstuuaUNpTaGyHErb7YklXKRt/SEtSLxPST6',
};

describe.skipIf(!pushgatewayBinary && !requireE2E)('pushing to a real Pushgateway', () => {
  it('from the environment: the group job / instance / grouping labels holds the exact totals, values with "/" in @base64', async ({
    startPushgateway,
    startFixture,
  }) => {
    const gateway = await startPushgateway();
    const child = startFixture(fixture, {
      OTEL_METRICS_EXPORTER: 'pushgateway',
      BACKUPSTATS_PUSHGATEWAY_URL: gateway.url,
      // A "/" in the job and in a grouping value can only travel in the Pushgateway's @base64 form.
      OTEL_SERVICE_NAME: 'nightly/backup',
      OTEL_RESOURCE_ATTRIBUTES: 'service.instance.id=db-1.internal:3306',
      BACKUPSTATS_PUSHGATEWAY_GROUPING: 'region=eu%2Fwest,tier=db%20primary',
      FIXTURE_BATCHES: '20',
      FIXTURE_PAUSE_MS: '5',
    });
    const recorded = await child.waitForEvent('totals');
    expect(await child.exited(), child.stderr()).toEqual({ code: 0, signal: null });

    const group = { job: 'nightly/backup', instance: 'db-1.internal:3306', region: 'eu/west', tier: 'db primary' };
    expect(await gateway.groups()).toEqual([group]);
    const samples = await gateway.samples();
    expect(groupMismatches(samples, group, expectedSeries(recorded.totals as ScopeTotal[], 'otel'))).toEqual([]);
    // target_info carries the resource: the job and instance of the group are its service name and instance id.
    expect(sampleValue(samples, 'target_info', { ...group, service_name: 'nightly/backup' })).toBe(1);
    expect(sampleValue(samples, 'push_failure_time_seconds', group)).toBe(0);
    expect(child.stderr()).toBe('');
  });

  it("without OTEL_SERVICE_NAME nor service.instance.id: the job is the resource's default service name, unknown_service:<process>, and the instance the host name", async ({
    startPushgateway,
    startFixture,
  }) => {
    const gateway = await startPushgateway();
    const child = startFixture(fixture, {
      OTEL_METRICS_EXPORTER: 'pushgateway',
      BACKUPSTATS_PUSHGATEWAY_URL: gateway.url,
      FIXTURE_BATCHES: '2',
    });
    expect(await child.exited(), child.stderr()).toEqual({ code: 0, signal: null });
    const [group, ...others] = await gateway.groups();
    expect(others).toEqual([]);
    // OpenTelemetry's default is unknown_service: and the process's argv0 (here the path of node: base64 in the URL).
    expect(group?.job).toMatch(/^unknown_service:.*node/);
    expect(group?.instance).toBe(hostname());
    const samples = await gateway.samples();
    expect(sampleValue(samples, 'target_info', { job: group?.job ?? '', service_name: group?.job ?? '' })).toBe(1);
  });

  it('combined with otlp: the Pushgateway group and the OTLP receiver both get the exact totals', async ({
    startPushgateway,
    startReceiver,
    startFixture,
  }) => {
    const gateway = await startPushgateway();
    const receiver = await startReceiver('http');
    const child = startFixture(fixture, {
      OTEL_METRICS_EXPORTER: 'otlp,pushgateway',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      BACKUPSTATS_PUSHGATEWAY_URL: gateway.url,
      OTEL_SERVICE_NAME: 'both',
      OTEL_RESOURCE_ATTRIBUTES: 'service.instance.id=db-2',
      FIXTURE_BATCHES: '10',
    });
    const recorded = await child.waitForEvent('totals');
    expect(await child.exited(), child.stderr()).toEqual({ code: 0, signal: null });
    const expected = expectedSeries(recorded.totals as ScopeTotal[], 'otel');
    expect(groupMismatches(await gateway.samples(), { job: 'both', instance: 'db-2' }, expected)).toEqual([]);
    expect(mismatches(expected, receiver.totals())).toEqual([]);
  });

  it('the core with a MeterProvider of its own: createPushgatewayExporter under a PeriodicExportingMetricReader, instance from the host name, a grouping value with "/"', async ({
    startPushgateway,
  }) => {
    const gateway = await startPushgateway();
    const histograms = createHistogramProducer();
    const reader = new PeriodicExportingMetricReader({
      // A value with "/" travels as @base64. (An empty one is refused: test/validation/grouping-labels.test.ts.)
      exporter: createPushgatewayExporter({
        url: gateway.url,
        job: 'in-process',
        grouping: { tier: 'db', volume: '/var/lib/mysql' },
      }),
      exportIntervalMillis: 600_000,
      metricProducers: [histograms],
    });
    const provider = new MeterProvider({ readers: [reader] });
    const stats = createBackupStats({ meterProvider: provider, histogramProducers: [histograms] });
    const workload = createWorkload(stats, { perBatch: 7 });
    for (let batch = 0; batch < 5; batch++) workload.recordBatch(batch);
    await stats.shutdown();
    await provider.shutdown();

    const group = { job: 'in-process', instance: hostname(), tier: 'db', volume: '/var/lib/mysql' };
    expect(await gateway.groups()).toEqual([group]);
    const samples = await gateway.samples();
    expect(groupMismatches(samples, group, expectedSeries(workload.totals(), 'otel'))).toEqual([]);
    // The latency histograms went along, in explicit buckets: 35 records per scope.
    const read = { ...group, operation: 'Source:Read', le: '+Inf' };
    expect(sampleValue(samples, 'backup_operation_duration_bucket', read)).toBe(35);
  });

  it('basic authentication from user:password in the URL: accepted pushes, and no message ever shows the password', async ({
    startPushgateway,
    startFixture,
  }) => {
    const gateway = await startPushgateway({ basicAuth: PUSHER });
    const withPassword = (password: string) => gateway.url.replace('http://', `http://${PUSHER.user}:${password}@`);
    const env = {
      OTEL_METRICS_EXPORTER: 'pushgateway',
      OTEL_SERVICE_NAME: 'authenticated',
      OTEL_LOG_LEVEL: 'warn',
      FIXTURE_BATCHES: '3',
    };
    const good = startFixture(fixture, { ...env, BACKUPSTATS_PUSHGATEWAY_URL: withPassword(PUSHER.password) });
    const recorded = await good.waitForEvent('totals');
    expect(await good.exited(), good.stderr()).toEqual({ code: 0, signal: null });
    const group = { job: 'authenticated', instance: hostname() };
    const expected = expectedSeries(recorded.totals as ScopeTotal[], 'otel');
    expect(groupMismatches(await gateway.samples(), group, expected)).toEqual([]);

    // A wrong password: the Pushgateway answers 401, reported through diag and at the end, without the password.
    const bad = startFixture(fixture, {
      ...env,
      OTEL_SERVICE_NAME: 'refused',
      BACKUPSTATS_PUSHGATEWAY_URL: withPassword('wr0ng-pa55'),
    });
    expect(await bad.exited(), bad.stderr()).toEqual({ code: 0, signal: null });
    expect(bad.stderr()).toMatch(
      /backupstats: the Pushgateway refused the push to http:\/\/127\.0\.0\.1:\d+\/metrics\/job\/refused\/instance\/[^ ]+ \(401 Unauthorized\): "Unauthorized"/,
    );
    expect(bad.stderr()).toMatch(
      /the Pushgateway exporter \(POST http:\/\/127\.0\.0\.1:\d+\/metrics\/job\/refused\/instance\/.+\) did not deliver the final export/,
    );
    for (const secret of ['wr0ng-pa55', PUSHER.password, `${PUSHER.user}:`]) expect(bad.stderr()).not.toContain(secret);
    expect((await gateway.groups()).map((g) => g.job)).toEqual(['authenticated']);
  });

  it('a push refused for inconsistent types (400): one diag error quoting the truncated answer, the job goes on, and its pushes land once the conflict is gone', async ({
    startPushgateway,
    startFixture,
  }) => {
    const gateway = await startPushgateway();
    // Another group holds backup_operations_total as a gauge, with a label long enough to make the answer long.
    const conflict = `# TYPE backup_operations_total gauge\nbackup_operations_total{note="${'x'.repeat(600)}"} 1\n`;
    expect((await gateway.request('POST', '/metrics/job/other', conflict)).status).toBe(200);

    const child = startFixture(fixture, {
      OTEL_METRICS_EXPORTER: 'pushgateway',
      BACKUPSTATS_PUSHGATEWAY_URL: gateway.url,
      OTEL_SERVICE_NAME: 'conflicting',
      OTEL_LOG_LEVEL: 'warn',
      OTEL_METRIC_EXPORT_INTERVAL: '300',
      FIXTURE_BATCHES: '1000000000',
      FIXTURE_PAUSE_MS: '10',
      FIXTURE_AFTER: 'idle',
    });
    await child.waitForEvent('recording');
    const group = { job: 'conflicting', instance: hostname() };
    // Several pushes are refused: the group's failure time moves on from one to the next.
    const firstFailure = await gateway.waitFor(
      (samples) => sampleValue(samples, 'push_failure_time_seconds', group) || undefined,
      'refused push',
    );
    await gateway.waitFor(
      (samples) => ((sampleValue(samples, 'push_failure_time_seconds', group) ?? 0) > firstFailure ? true : undefined),
      'second refused push',
    );
    const refusals = child.stderr().match(/backupstats: the Pushgateway refused the push[^\n]*/g) ?? [];
    expect(refusals, child.stderr()).toHaveLength(1);
    const refusal = refusals[0] ?? '';
    expect(refusal).toContain(
      `/metrics/job/conflicting/instance/${hostname()} (400 Bad Request): "pushed metrics are invalid or inconsistent with existing metrics: `,
    );
    expect(refusal).toContain('collected metric \\"backup_operations_total\\"');
    // The answer is quoted up to 500 characters (JSON-escaped), then cut.
    const quoted = /\(400 Bad Request\): ("(?:[^"\\]|\\.)*")/.exec(refusal)?.[1] ?? '""';
    expect((JSON.parse(quoted) as string).length).toBe(501);
    expect(quoted.endsWith('…"')).toBe(true);
    expect(refusal).toContain('that push is dropped, the job goes on');

    // The job still records; once the other group is gone its next push is accepted, with everything so far.
    expect((await gateway.request('DELETE', '/metrics/job/other')).status).toBe(202);
    await gateway.waitFor(
      (samples) => sampleValue(samples, 'backup_operations_total', { ...group, operation: 'Backup' }),
      'an accepted push',
    );
    child.child.kill('SIGUSR2');
    const recorded = await child.waitForEvent('totals');
    const expected = expectedSeries(recorded.totals as ScopeTotal[], 'otel');
    await gateway.waitFor(
      (samples) => (groupMismatches(samples, group, expected).length === 0 ? true : undefined),
      'the exact totals',
    );
    expect(groupSamples(await gateway.samples(), group).length).toBeGreaterThan(0);
  });
});
