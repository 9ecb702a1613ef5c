// Every point's interval is true, over the OTLP wire format decoded: for every counter, gauge and histogram point of
// a scripted job (the scopes' counters, the latency histograms, the runs' counter, histogram and gauges, the
// progress gauges of a run given an expected size and a phase, the self-metrics) the start is before
// the end, a series starts at (or before) its first record, and a series' counters and its latency histogram
// start together. Cumulative and delta, flush interval 1000 ms and 0, a one-shot job whose only export is the
// final one, and stats created before the provider. (The SDK 3.x line: test/compat/sdk3-intervals.test.ts.)
import { metrics } from '@opentelemetry/api';
import { AggregationTemporalityPreference, OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { type BackupStats, createBackupStats, createHistogramProducer } from 'backupstats';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import type { OtlpReceiver } from '../support/otlp-receiver.js';
import { describePoint, type IntervalPoint, intervalPoints } from '../support/received-intervals.js';

const SCOPES = [
  { component: 'BackupEngine', implementation: 'Builtin', operation: 'Source:Read' },
  { component: 'BackupStorage', implementation: 'File', operation: 'Destination:Write' },
  { component: 'BackupEngine', implementation: 'Builtin', operation: 'Compressor:Write' },
] as const;

/** Every instrument of the library: sums, histograms, the runs' and progress gauges and the self-metrics. */
const LIBRARY =
  /^(backup\.(operations|bytes|time|operation\.duration|runs|run\.duration|last_success\.(timestamp|bytes)|last_failure\.timestamp|run\.(progress|remaining_time|phase)|last_progress\.timestamp|active_runs)|backupstats\.(invalid_measurements|scopes))$/;
/** The instruments whose points a job must have sent, so that none of them is checked vacuously. */
const EXPECTED = [
  'backup.operations',
  'backup.operation.duration',
  'backup.runs',
  'backup.run.duration',
  'backup.last_success.timestamp',
  'backup.last_success.bytes',
  'backup.last_failure.timestamp',
  'backup.run.progress',
  'backup.run.remaining_time',
  'backup.last_progress.timestamp',
  'backup.run.phase',
  'backup.active_runs',
  'backupstats.invalid_measurements',
  'backupstats.scopes',
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const nanos = (ms: number): bigint => BigInt(ms) * 1_000_000n;

/**
 * When a job recorded: each scope's first record (Unix ms read right before and right after it), and every
 * millisecond it recorded in.
 */
interface Recorded {
  readonly before: Map<string, number>;
  readonly first: Map<string, number>;
  readonly during: Map<string, Set<number>>;
}

/**
 * Records bursts on the scopes (the third one only late, after an idle stretch), with a run per burst (given an
 * expected size and a phase, so that its progress gauges are exported), a failed run in the second burst and a
 * dropped (invalid) measurement in the third.
 */
async function job(stats: BackupStats, bursts: number, pauseMs: number): Promise<Recorded> {
  const before = new Map<string, number>();
  const first = new Map<string, number>();
  const during = new Map<string, Set<number>>();
  const mark = (operation: string, from: number) => {
    const set = during.get(operation) ?? new Set<number>();
    for (let ms = from; ms <= Date.now(); ms++) set.add(ms);
    during.set(operation, set);
  };
  for (let burst = 0; burst < bursts; burst++) {
    let from = Date.now();
    const run = stats.backup.startRun({ expectedBytes: 2 * 200 * 4096 });
    run.phase(burst % 2 === 0 ? 'copy' : 'verify');
    mark('-', from);
    for (const [i, labels] of SCOPES.entries()) {
      if (i === 2 && burst < bursts / 2) continue;
      const handle = stats.backup.scope(labels);
      from = Date.now();
      if (!before.has(labels.operation)) before.set(labels.operation, from);
      for (let k = 0; k < 200; k++) {
        handle.timedIncrementBytes(4096, 1 + (k % 4));
        if (!first.has(labels.operation)) first.set(labels.operation, Date.now());
      }
      mark(labels.operation, from);
    }
    from = Date.now();
    run.succeed(1);
    if (burst === 1) stats.backup.startRun().fail();
    if (burst === 2) stats.backup.timedIncrement(-1);
    mark('-', from);
    await sleep(pauseMs);
  }
  return { before, first, during };
}

/** Checks every point of the library's instruments the receiver got, and returns them. */
function checkIntervals(receiver: OtlpReceiver, recorded: Recorded): IntervalPoint[] {
  const points = intervalPoints(receiver).filter((p) => LIBRARY.test(p.metric));
  const metrics = new Set(points.map((p) => p.metric));
  for (const metric of EXPECTED) expect(metrics, metric).toContain(metric);
  for (const p of points) {
    // The SDK reads the clock in whole milliseconds: a point whose interval's first record and collection fall in
    // one millisecond starts where it ends. Any other starts before.
    const operation = p.attributes.operation ?? '';
    const sameMillisecond = p.start === p.end && recorded.during.get(operation)?.has(Number(p.end / 1_000_000n));
    expect(p.start < p.end || sameMillisecond, describePoint(p)).toBe(true);
    const first = recorded.first.get(operation);
    // Cumulative points start at the series' first record (the SDK reads the clock in milliseconds).
    if (first !== undefined && p.temporality === 2) expect(p.start <= nanos(first), describePoint(p)).toBe(true);
  }
  // A series' counters and latency histogram start together, at its first record: the library reads the clock for
  // the histogram right before the SDK reads it for the counters at the same add. Two clock reads apart, so the
  // histogram's start is not after the counters' and not before the first record (how far apart the two reads are
  // is not asserted: a pause of the process between them, a GC or a loaded machine, moves them apart).
  for (const { operation } of SCOPES) {
    const firstOf = (metric: string) =>
      points.find((p) => p.metric === metric && p.attributes.operation === operation)?.start;
    const counter = firstOf('backup.operations');
    const histogram = firstOf('backup.operation.duration');
    expect(counter, operation).toBeDefined();
    expect(histogram, operation).toBeDefined();
    const before = nanos(recorded.before.get(operation) as number);
    const apart = `${operation}: before its first record ${before}, histogram ${histogram}, counter ${counter}`;
    expect((histogram as bigint) >= before && (histogram as bigint) <= (counter as bigint), apart).toBe(true);
  }
  return points;
}

describe('every point starts before it ends, and at its first record', () => {
  for (const [temporality, flush] of [
    ['cumulative', '1000'],
    ['delta', '1000'],
    ['cumulative', '0'],
    ['delta', '0'],
  ] as const) {
    it(`${temporality}, flush interval ${flush} ms: exports amid the records`, async ({
      startReceiver,
      startFromEnv,
    }) => {
      const receiver = await startReceiver();
      const stats = await startFromEnv({
        OTEL_METRICS_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE: temporality,
        OTEL_METRIC_EXPORT_INTERVAL: '60',
        BACKUPSTATS_FLUSH_INTERVAL_MS: flush,
      });
      const recorded = await job(stats, 10, 35);
      await stats.shutdown();
      expect(receiver.exports.length).toBeGreaterThanOrEqual(4);
      checkIntervals(receiver, recorded);
    });
  }

  it('a one-shot job whose only export is the final one: its points span the job, not the last flush', async ({
    startReceiver,
    startFromEnv,
  }) => {
    const receiver = await startReceiver();
    const stats = await startFromEnv({
      OTEL_METRICS_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_METRIC_EXPORT_INTERVAL: '600000',
    });
    const started = Date.now();
    const recorded = await job(stats, 4, 60);
    await stats.shutdown();
    expect(receiver.exports).toHaveLength(1);
    const points = checkIntervals(receiver, recorded);
    const read = points.find((p) => p.metric === 'backup.operations' && p.attributes.operation === 'Source:Read');
    // 800 operations over the job's 240 ms or so, not over the few milliseconds of its final export.
    expect(Number((read?.end ?? 0n) - (read?.start ?? 0n)) / 1e6).toBeGreaterThanOrEqual(Date.now() - started - 100);
  });

  it('stats created before the provider: their series start at their first record once it is there', async ({
    startReceiver,
  }) => {
    const receiver = await startReceiver();
    const producer = createHistogramProducer({ temporality: 'delta' });
    const stats = createBackupStats({ histogramProducers: [producer] });
    const exporter = new OTLPMetricExporter({
      url: `${receiver.url}/v1/metrics`,
      temporalityPreference: AggregationTemporalityPreference.DELTA,
    });
    const reader = new PeriodicExportingMetricReader({
      exporter,
      exportIntervalMillis: 60,
      metricProducers: [producer],
    });
    const provider = new MeterProvider({ readers: [reader] });
    metrics.setGlobalMeterProvider(provider);
    onTestFinished(async () => {
      await stats.shutdown();
      await provider.shutdown();
      metrics.disable();
    });
    const recorded = await job(stats, 8, 35);
    await stats.shutdown();
    await provider.shutdown();
    checkIntervals(receiver, recorded);
  });
});
