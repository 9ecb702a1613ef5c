// @ts-nocheck
// Compatibility: the end of a job on the OpenTelemetry JS 3.x line on Node 22 (installed as
// test/support/sdk3-install.ts says) keeps the shutdown's deadline whatever the backend does, as test/exit/ checks
// on the 2.x line.
import { connect } from 'node:net';
import { describe, expect, onTestFinished } from 'vitest';
import { refusingCollector, startStalledCollector } from '../support/dead-collector.js';
import { it } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';
import { HANG_MS, runSdk3, useSdk3Install } from '../support/sdk3-install.js';

describe.skipIf(!runSdk3)('with @opentelemetry/sdk-metrics 3.x on Node 22', () => {
  const { exitJob } = useSdk3Install();

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
});
