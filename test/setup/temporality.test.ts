// OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE through startBackupStats, as the specification maps it: under
// `delta` and `lowmemory` the counters, the runs' SDK histogram and the latency histograms all arrive delta, and
// the deltas of every series sum to what was recorded, over several exports that race the records; under
// `cumulative` everything is cumulative. Read from the OTLP wire format, decoded.
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { describePoint, type IntervalPoint, intervalPoints } from '../support/received-intervals.js';

const READ = { component: 'BackupEngine', implementation: 'Builtin', operation: 'Source:Read' } as const;
const WRITE = { component: 'BackupStorage', implementation: 'File', operation: 'Destination:Write' } as const;

/** OTLP AggregationTemporality. */
const DELTA = 1;
const CUMULATIVE = 2;

const of = (points: IntervalPoint[], metric: string, operation: string): IntervalPoint[] =>
  points.filter((p) => p.metric === metric && p.attributes.operation === operation);

describe('the temporality preference of the OTLP exporter', () => {
  for (const preference of ['delta', 'lowmemory', 'cumulative'] as const) {
    it(`${preference}: counters and both histograms in the temporality the specification gives them`, async ({
      startReceiver,
      startFromEnv,
    }) => {
      const receiver = await startReceiver();
      const stats = await startFromEnv({
        OTEL_METRICS_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE: preference,
        OTEL_METRIC_EXPORT_INTERVAL: '50',
      });
      const read = stats.backup.scope(READ);
      const write = stats.backup.scope(WRITE);
      let reads = 0;
      let writes = 0;
      let runs = 0;
      // Bursts and pauses, so that the periodic exports fall between and amid them; one scope idle for a while.
      for (let burst = 0; burst < 12; burst++) {
        for (let i = 0; i < 300; i++) {
          read.timedIncrementBytes(4096, 1 + (i % 5));
          reads++;
        }
        if (burst < 3 || burst > 8) {
          for (let i = 0; i < 100; i++) write.timedIncrementBytes(512, 0.5);
          writes += 100;
        }
        const run = stats.backup.startRun();
        run.succeed(10);
        runs++;
        await new Promise((resolve) => setTimeout(resolve, 20 + (burst % 3) * 15));
      }
      await stats.shutdown();

      const points = intervalPoints(receiver);
      const expected = preference === 'cumulative' ? CUMULATIVE : DELTA;
      const operations = of(points, 'backup.operations', 'Source:Read');
      expect(receiver.exports.length).toBeGreaterThanOrEqual(4);
      expect(operations.length).toBeGreaterThanOrEqual(4);
      for (const [metric, operation] of [
        ['backup.operations', 'Source:Read'],
        ['backup.bytes', 'Source:Read'],
        ['backup.operation.duration', 'Source:Read'],
        ['backup.operation.duration', 'Destination:Write'],
        ['backup.run.duration', '-'],
        ['backup.runs', '-'],
      ] as const) {
        const series = of(points, metric, operation);
        expect(series.length, `${metric} ${operation}`).toBeGreaterThan(0);
        for (const p of series) expect(p.temporality, describePoint(p)).toBe(expected);
      }
      /** What the points of one series say in all: the sum of the deltas, or the latest cumulative value. */
      const total = (series: IntervalPoint[]): number =>
        expected === DELTA ? series.reduce((sum, p) => sum + p.value, 0) : (series.at(-1)?.value ?? 0);
      expect(total(operations)).toBe(reads);
      expect(total(of(points, 'backup.bytes', 'Source:Read'))).toBe(reads * 4096);
      expect(total(of(points, 'backup.operation.duration', 'Source:Read'))).toBe(reads);
      expect(total(of(points, 'backup.operation.duration', 'Destination:Write'))).toBe(writes);
      expect(total(of(points, 'backup.run.duration', '-'))).toBe(runs);
      if (expected === DELTA) {
        // No point for an interval without records: every delta histogram point holds at least one.
        for (const p of of(points, 'backup.operation.duration', 'Destination:Write'))
          expect(p.value).toBeGreaterThan(0);
        // Summed sums are the recorded time.
        const summed = of(points, 'backup.operation.duration', 'Destination:Write').reduce(
          (s, p) => s + (p.sum ?? 0),
          0,
        );
        expect(summed).toBeCloseTo((writes * 0.5) / 1000, 9);
      }
    });
  }
});
