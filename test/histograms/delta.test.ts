// Latency histograms in the reader's temporality: a hand-built DELTA reader with a delta producer gets, at each
// collection, what was recorded since the previous one (count, sum, buckets; its start the previous collection's
// time), nothing for an interval without records, and deltas that sum to the cumulative truth, also with
// records racing the collections. A delta producer feeds one reader: given to two, it is refused.
import {
  AggregationTemporality,
  type Histogram,
  InMemoryMetricExporter,
  MeterProvider,
  type MetricData,
  PeriodicExportingMetricReader,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import { createBackupStats, createHistogramProducer } from 'backupstats';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';

const DURATION = 'backup.operation.duration';
const READ = { component: 'BackupEngine', implementation: 'Builtin', operation: 'Source:Read' } as const;

/** A provider whose one DELTA reader exports to memory, with a delta producer; every export an explicit flush. */
function deltaReader() {
  const producer = createHistogramProducer({ temporality: 'delta' });
  const exporter = new InMemoryMetricExporter(AggregationTemporality.DELTA);
  const reader = new PeriodicExportingMetricReader({
    exporter,
    exportIntervalMillis: 2 ** 30,
    metricProducers: [producer],
  });
  const provider = new MeterProvider({ readers: [reader] });
  const stats = createBackupStats({ meterProvider: provider, histogramProducers: [producer] });
  onTestFinished(async () => {
    await stats.shutdown();
    await provider.shutdown();
  });
  return {
    stats,
    producer,
    reader,
    /** Makes the reader export now and returns that export. */
    async collect(): Promise<ResourceMetrics> {
      exporter.reset();
      await reader.forceFlush();
      const last = exporter.getMetrics().at(-1);
      if (last === undefined) throw new Error('the reader exported nothing');
      return last;
    },
  };
}

const metric = (exported: ResourceMetrics, name: string): MetricData | undefined =>
  exported.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name);

const nanos = ([seconds, ns]: readonly [number, number]): bigint => BigInt(seconds) * 1_000_000_000n + BigInt(ns);

describe('delta latency histograms', () => {
  it('a DELTA reader gets each interval on its own, its start the previous collection, none when idle', async () => {
    const { stats, collect } = deltaReader();
    const read = stats.backup.scope(READ);
    const rounds = [500, 1000, 0, 1500, 250];
    const exports: ResourceMetrics[] = [];
    for (const [round, records] of rounds.entries()) {
      for (let i = 0; i < records; i++) read.timedIncrementBytes(10, 2 + (i % 3));
      // Records in different milliseconds, so that each interval's start and end are apart.
      await new Promise((resolve) => setTimeout(resolve, 5 + round));
      exports.push(await collect());
    }
    let previousEnd: bigint | undefined;
    let summedCount = 0;
    let summedSum = 0;
    const summedBuckets: number[] = [];
    for (const [round, records] of rounds.entries()) {
      const exported = exports[round] as ResourceMetrics;
      const histogram = metric(exported, DURATION);
      const operations = metric(exported, 'backup.operations');
      if (records === 0) {
        // No record in the interval: no point, as the SDK's own delta instruments give none.
        expect(histogram?.dataPoints ?? [], `round ${round}`).toEqual([]);
        expect(operations?.dataPoints ?? [], `round ${round}`).toEqual([]);
        continue;
      }
      expect(histogram?.aggregationTemporality, `round ${round}`).toBe(AggregationTemporality.DELTA);
      expect(operations?.aggregationTemporality, `round ${round}`).toBe(AggregationTemporality.DELTA);
      const point = histogram?.dataPoints[0];
      const value = point?.value as Histogram;
      expect(value.count, `round ${round}`).toBe(records);
      expect(value.buckets.counts.reduce((a, b) => a + b, 0)).toBe(records);
      expect(operations?.dataPoints[0]?.value).toBe(records);
      const start = nanos(point?.startTime as [number, number]);
      const end = nanos(point?.endTime as [number, number]);
      expect(start < end, `round ${round}: start ${start} before end ${end}`).toBe(true);
      if (previousEnd !== undefined) expect(start).toBeGreaterThanOrEqual(previousEnd);
      previousEnd = end;
      // Min and max, when given, are those of the interval.
      if (value.min !== undefined) expect(value.min).toBeGreaterThanOrEqual(0.002);
      if (value.max !== undefined) expect(value.max).toBeLessThanOrEqual(0.004);
      summedCount += value.count;
      summedSum += value.sum ?? 0;
      value.buckets.counts.forEach((c, j) => {
        summedBuckets[j] = (summedBuckets[j] ?? 0) + c;
      });
    }
    const truth = rounds.reduce((a, b) => a + b, 0);
    expect(summedCount).toBe(truth);
    const truthSum = rounds.reduce((sum, n) => sum + [...Array(n).keys()].reduce((s, i) => s + (2 + (i % 3)), 0), 0);
    expect(summedSum).toBeCloseTo(truthSum / 1000, 9);
    expect(summedBuckets.reduce((a, b) => a + b, 0)).toBe(truth);
  });

  it('the deltas sum to the truth when collections race the records', async () => {
    const { stats, producer, reader } = deltaReader();
    // The reader's collections themselves, several in flight at once (an export each would share one exporter).
    const collect = async (): Promise<ResourceMetrics> => (await reader.collect()).resourceMetrics;
    const op = stats.backup.scope({ operation: 'race' });
    let records = 0;
    const counted: Promise<number>[] = [];
    for (let round = 0; round < 100; round++) {
      for (let i = 0; i < 50; i++) {
        op.timedIncrement(((round * 50 + i) % 97) + 0.5);
        records += 1;
      }
      // Collections in flight while the records go on, several at once.
      counted.push(
        collect().then((exported) => {
          const value = metric(exported, DURATION)?.dataPoints[0]?.value as Histogram | undefined;
          return value?.count ?? 0;
        }),
      );
      if (round % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    counted.push(
      collect().then((exported) => (metric(exported, DURATION)?.dataPoints[0]?.value as Histogram)?.count ?? 0),
    );
    const total = (await Promise.all(counted)).reduce((a, b) => a + b, 0);
    expect(total).toBe(records);
    expect(producer.temporality).toBe('delta');
  });

  it('a delta producer given to two readers is refused; each reader with its own gets the truth', async () => {
    const shared = createHistogramProducer({ temporality: 'delta' });
    const readerOf = (producer: typeof shared) =>
      new PeriodicExportingMetricReader({
        exporter: new InMemoryMetricExporter(AggregationTemporality.DELTA),
        exportIntervalMillis: 2 ** 30,
        metricProducers: [producer],
      });
    const provider = new MeterProvider({ readers: [readerOf(shared), readerOf(shared)] });
    onTestFinished(() => provider.shutdown());
    expect(() => createBackupStats({ meterProvider: provider, histogramProducers: [shared] })).toThrow(
      new TypeError(
        "backupstats: option histogramProducers is a delta producer that 2 readers of the MeterProvider have in their metricProducers; accepted: one reader per delta producer: createHistogramProducer({ temporality: 'delta' }) once for each reader",
      ),
    );
    // A cumulative producer keeps nothing between collections: two readers may share it.
    const cumulative = createHistogramProducer();
    const both = new MeterProvider({ readers: [readerOf(cumulative), readerOf(cumulative)] });
    onTestFinished(() => both.shutdown());
    const stats = createBackupStats({ meterProvider: both, histogramProducers: [cumulative] });
    onTestFinished(() => stats.shutdown());
  });

  it('refuses a temporality it does not know', () => {
    expect(() => createHistogramProducer({ temporality: 'lowmemory' as never })).toThrow(
      new TypeError(
        'backupstats: createHistogramProducer option temporality is "lowmemory"; accepted: "cumulative" or "delta"',
      ),
    );
  });
});
