// @ts-nocheck
// A real Prometheus scrapes the latency histograms of a job set up from the environment and answers
// histogram_quantile over them: each answer lies in the bucket that holds the true quantile (Prometheus
// interpolates inside a bucket; the bucket's counts are exact).
import { DEFAULT_HISTOGRAM_BOUNDARIES } from 'backupstats';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';
import { prometheusBinary, requireE2E } from '../support/prometheus.js';

const BOUNDARIES = DEFAULT_HISTOGRAM_BOUNDARIES;

describe.skipIf(!prometheusBinary && !requireE2E)('histogram_quantile in a real Prometheus', () => {
  it('p50, p90 and p99 of S3-like request latencies fall in the buckets of the true quantiles', async ({
    startFromEnv,
    startPrometheus,
  }) => {
    const port = await freePort();
    const stats = await startFromEnv({
      OTEL_METRICS_EXPORTER: 'prometheus',
      OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
      OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
    });
    // 1000 attempts: most between 4 and 30 ms, a throttled tail at 300-600 ms.
    const durations = Array.from({ length: 1000 }, (_, i) => (i % 50 === 7 ? 300 + (i % 7) * 50 : 4 + ((i * 37) % 27)));
    const send = stats.backup.scope({
      component: 'BackupStorage',
      implementation: 'S3',
      operation: 'AWS:Request:Send',
    });
    for (const ms of durations) send.timedIncrementBytes(1024, ms);

    const prometheus = await startPrometheus([`127.0.0.1:${port}`]);
    const sorted = [...durations].sort((a, b) => a - b);
    for (const q of [0.5, 0.9, 0.99]) {
      const [sample] = await prometheus.waitForSamples(
        `histogram_quantile(${q}, sum by (le) (backup_operation_duration_bucket{operation="AWS:Request:Send"}))`,
        (samples) => samples.length === 1 && Number.isFinite(samples[0]?.value),
      );
      const truth = (sorted[Math.ceil(q * sorted.length) - 1] as number) / 1000;
      const upper = BOUNDARIES.find((b) => b >= truth) as number;
      const lower = BOUNDARIES[BOUNDARIES.indexOf(upper) - 1] ?? 0;
      expect({
        q,
        answer: sample?.value,
        inBucket: (sample?.value as number) > lower && (sample?.value as number) <= upper,
      }).toMatchObject({
        q,
        inBucket: true,
      });
    }
  });
});
