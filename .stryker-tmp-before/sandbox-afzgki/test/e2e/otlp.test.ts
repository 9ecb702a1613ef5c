// @ts-nocheck
// A job configured only through OTEL_* / BACKUPSTATS_* variables exports over OTLP to a receiver that
// decodes the wire format with the official definitions: exact totals, resource attributes, and recovery
// after the receiver was down for several export intervals.
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import type { ScopeTotal } from '../fixtures/workload.mjs';
import { type ExpectedSeries, expectedSeries, mismatches } from '../support/e2e-expected.js';
import { it } from '../support/fixtures.js';
import type { DownMode, OtlpReceiver } from '../support/otlp-receiver.js';

const fixture = fileURLToPath(new URL('../fixtures/record-job.mjs', import.meta.url));

/** The series the receiver holds for the workload's metric names, so that extra series are seen too. */
function workloadSeries(r: OtlpReceiver, expected: readonly ExpectedSeries[]): string[] {
  const names = new Set(expected.map((s) => s.metric));
  return [...r.totals().keys()].filter((key) => names.has(key.slice(0, key.indexOf('{')))).sort();
}

describe('OTLP export configured from the environment', () => {
  const cases = [
    { protocol: 'http/protobuf', transport: 'http', naming: 'otel', prefix: '' },
    { protocol: 'http/json', transport: 'http', naming: 'otel', prefix: '' },
    { protocol: 'grpc', transport: 'grpc', naming: 'vitess', prefix: 'vtbackup_' },
  ] as const;
  for (const { protocol, transport, naming, prefix } of cases) {
    it(`${protocol}: the receiver gets the exact totals and the resource from OTEL_SERVICE_NAME / OTEL_RESOURCE_ATTRIBUTES (${naming} names)`, async ({
      startReceiver,
      startFixture,
    }) => {
      const r = await startReceiver(transport);
      const child = startFixture(fixture, {
        OTEL_METRICS_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_ENDPOINT: r.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        OTEL_METRIC_EXPORT_INTERVAL: '200',
        OTEL_SERVICE_NAME: 'nightly-backup',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=staging,host.role=db%20replica,service.name=overridden',
        BACKUPSTATS_NAMING: naming,
        BACKUPSTATS_METRIC_PREFIX: prefix,
        FIXTURE_BATCHES: '40',
        FIXTURE_PAUSE_MS: '5',
      });
      const recorded = await child.waitForEvent('totals');
      expect(await child.exited(), child.stderr()).toEqual({ code: 0, signal: null });

      const expected = expectedSeries(recorded.totals as ScopeTotal[], naming, prefix);
      expect(mismatches(expected, r.totals())).toEqual([]);
      expect(workloadSeries(r, expected)).toHaveLength(expected.length);
      expect(r.exports.length).toBeGreaterThan(0);
      expect(r.exports.every((e) => e.protocol === protocol)).toBe(true);
      // OTEL_SERVICE_NAME wins over service.name in OTEL_RESOURCE_ATTRIBUTES; values are percent-decoded.
      expect(r.resource()).toMatchObject({
        'service.name': 'nightly-backup',
        'deployment.environment.name': 'staging',
        'host.role': 'db replica',
      });
    });
  }
});

describe('OTLP receiver down for several export intervals while the job records', () => {
  const faults: { transport: 'http' | 'grpc'; mode: DownMode; what: string }[] = [
    { transport: 'http', mode: 'unavailable', what: 'http/protobuf, receiver answering 503' },
    { transport: 'http', mode: 'reset', what: 'http/protobuf, receiver dropping connections unanswered' },
    { transport: 'http', mode: 'closed', what: 'http/protobuf, receiver refusing connections' },
    { transport: 'grpc', mode: 'unavailable', what: 'grpc, receiver answering UNAVAILABLE' },
    { transport: 'grpc', mode: 'closed', what: 'grpc, receiver gone' },
  ];
  for (const { transport, mode, what } of faults) {
    it(`${what}: the cumulative totals it finally receives are exact`, async ({ startReceiver, startFixture }) => {
      const r = await startReceiver(transport);
      const child = startFixture(fixture, {
        OTEL_METRICS_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_ENDPOINT: r.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: transport === 'grpc' ? 'grpc' : 'http/protobuf',
        OTEL_METRIC_EXPORT_INTERVAL: '150',
        OTEL_METRIC_EXPORT_TIMEOUT: '100',
        FIXTURE_BATCHES: '1000000000',
        FIXTURE_PAUSE_MS: '10',
        FIXTURE_AFTER: 'idle',
      });
      await child.waitForEvent('recording');
      await r.waitFor((x) => x.totals().size > 0, 30_000, 'a first export with data');
      await r.down(mode);
      if (mode !== 'closed' && !(transport === 'grpc' && mode === 'reset')) {
        // Each attempt (first tries and the exporter's retries) is turned away and counted.
        await r.waitFor(() => r.rejected >= 4, 30_000, 'four rejected exports');
      } else {
        // Nothing reaches a closed port; wait for several export intervals of the child to pass.
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      await r.up();

      // The loop was still running (it ends only on SIGUSR2): stop it and learn what it recorded in all.
      child.child.kill('SIGUSR2');
      const recorded = await child.waitForEvent('totals');
      expect(recorded.reason).toBe('stopped');
      const expected = expectedSeries(recorded.totals as ScopeTotal[], 'otel');
      // Delivered by the periodic export (the child stays alive and is not shut down until it has been).
      await r.waitFor((x) => mismatches(expected, x.totals()).length === 0, 30_000, 'the exact final totals');
      expect(mismatches(expected, r.totals())).toEqual([]);

      child.child.kill('SIGTERM');
      const end = await child.exited();
      expect(end.signal === 'SIGTERM' || end.code === 143, `exit ${JSON.stringify(end)}`).toBe(true);
    });
  }
});
