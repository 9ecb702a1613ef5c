// The Prometheus endpoint that backupstats/setup serves, configured from the environment.
import { createServer, type Server } from 'node:net';
import { Component, Implementation, Operation } from 'backupstats';
import { startBackupStats } from 'backupstats/setup';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';
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

function seriesValue(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)\{(.*)\} (\S+)$/.exec(line);
    if (match === null || match[1] !== name) continue;
    const body = match[2] ?? '';
    if (Object.entries(labels).every(([k, v]) => body.includes(`${k}="${v}"`))) return Number(match[3]);
  }
  return undefined;
}

describe('Prometheus endpoint configured from the environment', () => {
  it('listens when startBackupStats resolves, serves the series over plain HTTP, next to OTLP, and closes on shutdown', async ({
    startReceiver,
    startFromEnv,
  }) => {
    const r = await startReceiver();
    const port = await freePort();
    const stats = await startFromEnv({
      OTEL_METRICS_EXPORTER: 'prometheus, OTLP',
      OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
      OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_ENDPOINT: r.url,
      OTEL_SERVICE_NAME: 'scraped-job',
    });
    const read = stats.backup.scope(READ);
    read.timedIncrementBytes(1000, 250);
    read.timedIncrementBytes(24, 250);

    // No wait, no retry: the endpoint listens as soon as the promise resolved.
    const response = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    const labels = { component: 'BackupEngine', implementation: 'Builtin', operation: 'Source:Read' };
    expect(seriesValue(text, 'backup_bytes_total', labels)).toBe(1024);
    expect(seriesValue(text, 'backup_operations_total', labels)).toBe(2);
    expect(seriesValue(text, 'backup_time_total', labels)).toBe(0.5);
    expect(seriesValue(text, 'target_info', { service_name: 'scraped-job' })).toBe(1);

    await stats.shutdown();
    // The same numbers went out over OTLP at shutdown.
    const last = r.exports[r.exports.length - 1];
    expect(readPoints(last?.points ?? [], 'backup.bytes')[0]?.value).toBe(1024);
    // And the endpoint is closed: the port is free again.
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
    const again = createServer();
    await new Promise<void>((resolve, reject) => {
      again.once('error', reject);
      again.listen(port, '127.0.0.1', resolve);
    });
    await new Promise<void>((resolve) => again.close(() => resolve()));
  });

  // 2,500 series through the real exporter's serializer and a scrape over HTTP: more than the default 5 s can hold.
  it('BACKUPSTATS_MAX_SCOPES above the SDK default limit of 2000 series: every scope keeps its own series', {
    timeout: 30_000,
  }, async ({ startFromEnv }) => {
    const port = await freePort();
    const stats = await startFromEnv({
      OTEL_METRICS_EXPORTER: 'prometheus',
      OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
      OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
      BACKUPSTATS_MAX_SCOPES: '3000',
    });
    for (let i = 0; i < 2500; i++) stats.backup.scope({ operation: `op${i}` }).timedIncrement(1);
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const lines = text.split('\n').filter((line) => line.startsWith('backup_operations_total{'));
    expect(lines.filter((line) => /operation="op\d+"/.test(line))).toHaveLength(2500);
    expect(lines.filter((line) => line.includes('otel_metric_overflow'))).toEqual([]);
  });

  it('rejects with the address, the variables and the cause when the port is taken', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const address = taken.address();
    if (address === null || typeof address === 'string') throw new Error('no port');

    const attempt = startBackupStats({
      env: {
        OTEL_METRICS_EXPORTER: 'prometheus',
        OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
        OTEL_EXPORTER_PROMETHEUS_PORT: String(address.port),
      },
    });
    await expect(attempt).rejects.toThrow(
      new RegExp(
        `could not listen on 127\\.0\\.0\\.1:${address.port} \\(OTEL_EXPORTER_PROMETHEUS_HOST / OTEL_EXPORTER_PROMETHEUS_PORT\\): .*EADDRINUSE`,
      ),
    );
    await expect(attempt).rejects.toMatchObject({ code: 'BACKUPSTATS_LISTEN_FAILED' });
  });
});
