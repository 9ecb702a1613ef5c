// Endpoint URLs may carry credentials: a message about one never shows its user, password or query. The export
// timeout bounds pushes only: with Prometheus alone (pulled), it is not held to the push interval.
import { startBackupStats } from 'backupstats/setup';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';

describe('an endpoint URL with credentials in an error', () => {
  it.each([
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'ftp://user:s3cr3tpass@collector:4318/?token=t0ps3cret'],
    ['OTEL_EXPORTER_OTLP_METRICS_ENDPOINT', 'http://user:s3cr3tpass@'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318?api_key=t0ps3cret'],
  ])('%s=%s: the message names the variable and hides user, password and query', async (variable, value) => {
    const error = await startBackupStats({ env: { OTEL_METRICS_EXPORTER: 'otlp', [variable]: value } }).catch(
      (caught: unknown) => caught as Error,
    );
    expect(error).toBeInstanceOf(TypeError);
    const { message } = error as Error;
    expect(message).toMatch(new RegExp(`^backupstats: ${variable} is "`));
    expect(message).toContain('accepted: an http:// or https:// URL');
    for (const secret of ['user', 's3cr3tpass', 't0ps3cret']) expect(message).not.toContain(secret);
    expect(message).toContain('<redacted>');
  });
});

describe('OTEL_METRIC_EXPORT_TIMEOUT and the export interval', () => {
  it('with Prometheus alone, a timeout longer than the interval is accepted (nothing is pushed)', async ({
    startFromEnv,
  }) => {
    const stats = await startFromEnv({
      OTEL_METRICS_EXPORTER: 'prometheus',
      OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
      OTEL_EXPORTER_PROMETHEUS_PORT: String(await freePort()),
      OTEL_METRIC_EXPORT_INTERVAL: '1000',
      OTEL_METRIC_EXPORT_TIMEOUT: '5000',
    });
    expect(stats.shutdownTimeoutMillis).toBe(6000);
  });

  it('with a push exporter beside it, the timeout must still end before the next export', async () => {
    await expect(
      startBackupStats({
        env: {
          OTEL_METRICS_EXPORTER: 'prometheus,console',
          OTEL_METRIC_EXPORT_INTERVAL: '1000',
          OTEL_METRIC_EXPORT_TIMEOUT: '5000',
        },
      }),
    ).rejects.toThrow(
      /^backupstats: OTEL_METRIC_EXPORT_TIMEOUT is "5000" \(an export must end before the next one starts\)/,
    );
  });
});
