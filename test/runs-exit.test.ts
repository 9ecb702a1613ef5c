// A run in progress when the job ends (SIGTERM, SIGINT, or a normal end with the run never finished) is a
// failure with the reason "interrupted", and the final export at shutdown carries it.
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startFixture } from './support/child.js';
import { type OtlpReceiver, seriesKey, startOtlpReceiver } from './support/otlp-receiver.js';

const fixture = fileURLToPath(new URL('./fixtures/run-job.mjs', import.meta.url));
const LABELS = { component: 'BackupEngine', implementation: 'Builtin', operation: 'Backup' };
/** Exit codes a shell reports for a process killed by the signal (128 + its number). */
const SHELL_CODE = { SIGTERM: 143, SIGINT: 130 } as const;

/** The latest value of a gauge series. */
function gauge(receiver: OtlpReceiver, metric: string): number | undefined {
  const points = receiver.exports.flatMap((e) => e.points).filter((p) => p.kind === 'gauge' && seriesKey(p.metric, p.attributes) === seriesKey(metric, LABELS));
  return points.at(-1)?.value;
}

/** A histogram metric of a decoded ExportMetricsServiceRequest (the receiver flattens only sums and gauges). */
interface DecodedMetric {
  name: string;
  histogram?: { dataPoints: { count: string; attributes: { key: string; value: { stringValue?: string } }[] }[] };
}
interface DecodedRequest {
  resourceMetrics: { scopeMetrics: { metrics: DecodedMetric[] }[] }[];
}

/** The latest count of the histogram series with this outcome. */
function histogramCount(receiver: OtlpReceiver, metric: string, outcome: string): number | undefined {
  let count: number | undefined;
  for (const { request } of receiver.exports) {
    const metrics = (request as DecodedRequest).resourceMetrics.flatMap((rm) => rm.scopeMetrics.flatMap((sm) => sm.metrics));
    for (const point of metrics.find((m) => m.name === metric)?.histogram?.dataPoints ?? []) {
      if (point.attributes.some((a) => a.key === 'outcome' && a.value.stringValue === outcome)) count = Number(point.count);
    }
  }
  return count;
}

describe('a run in progress at the end of the job', () => {
  for (const ending of ['SIGTERM', 'SIGINT', 'return'] as const) {
    it(`${ending === 'return' ? 'the job ends normally without finishing it' : `the job gets ${ending}`}: a failure "interrupted", in the final export`, async () => {
      const receiver = await startOtlpReceiver('http');
      onTestFinished(() => receiver.stop());
      const child = startFixture(fixture, {
        OTEL_METRICS_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
        // No export before the shutdown's: only the final export can deliver the runs.
        OTEL_METRIC_EXPORT_INTERVAL: '600000',
        FIXTURE_END: ending === 'return' ? 'return' : 'signal',
      });
      onTestFinished(() => child.kill());
      await child.waitForEvent('ready');
      if (ending !== 'return') child.child.kill(ending);
      const end = await child.exited();
      if (ending === 'return') expect(end, child.stderr()).toEqual({ code: 0, signal: null });
      else expect(end.signal === ending || end.code === SHELL_CODE[ending], `${JSON.stringify(end)}\n${child.stderr()}`).toBe(true);

      const totals = receiver.totals();
      expect(totals.get(seriesKey('backup.runs', { ...LABELS, outcome: 'success' }))).toBe(1);
      expect(totals.get(seriesKey('backup.runs', { ...LABELS, outcome: 'failure', 'error.type': 'interrupted' }))).toBe(1);
      expect(totals.get(seriesKey('backup.runs', { ...LABELS, outcome: 'failure', 'error.type': '_OTHER' }))).toBe(0);
      expect(gauge(receiver, 'backup.last_success.bytes')).toBe(4096);
      expect(gauge(receiver, 'backup.last_failure.timestamp')).toBeGreaterThanOrEqual(gauge(receiver, 'backup.last_success.timestamp') ?? Number.NaN);
      expect(histogramCount(receiver, 'backup.run.duration', 'failure')).toBe(1);
      expect(histogramCount(receiver, 'backup.run.duration', 'success')).toBe(1);
    });
  }
});
