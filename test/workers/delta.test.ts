// Two worker threads record through one link while a DELTA reader with a delta histogram producer collects again
// and again: the deltas of the counters and of the latency histograms sum to what the workers recorded, every
// delta histogram point is consistent, and none is given for an interval without records.
import {
  AggregationTemporality,
  type Histogram,
  InMemoryMetricExporter,
  MeterProvider,
  type MetricData,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { createBackupStats, createHistogramProducer } from 'backupstats';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { startRecordingWorker } from '../support/workers.js';

const WORKERS = 2;
const ROUNDS = 30;
const PER_ROUND = 2_000;
const MS = [0.25, 40];

describe('worker threads and a delta reader', () => {
  it('the deltas sum to what the workers recorded, counters and histograms alike', async () => {
    const producer = createHistogramProducer({ temporality: 'delta' });
    const reader = new PeriodicExportingMetricReader({
      exporter: new InMemoryMetricExporter(AggregationTemporality.DELTA),
      exportIntervalMillis: 2 ** 30,
      metricProducers: [producer],
    });
    const provider = new MeterProvider({ readers: [reader] });
    const stats = createBackupStats({
      meterProvider: provider,
      histogramProducers: [producer],
      flushIntervalMillis: 1,
    });
    onTestFinished(async () => {
      await stats.shutdown();
      await provider.shutdown();
    });
    const link = stats.workerLink({ workers: WORKERS });
    const workers = await Promise.all(Array.from({ length: WORKERS }, () => startRecordingWorker(link)));
    const operations = new Map<string, number>();
    const counts = new Map<string, number>();
    const add = (map: Map<string, number>, key: string, value: number) => map.set(key, (map.get(key) ?? 0) + value);
    const take = async (): Promise<void> => {
      const { resourceMetrics } = await reader.collect();
      const metrics = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics);
      const named = (name: string): MetricData | undefined => metrics.find((m) => m.descriptor.name === name);
      for (const point of named('backup.operations')?.dataPoints ?? []) {
        expect(named('backup.operations')?.aggregationTemporality).toBe(AggregationTemporality.DELTA);
        add(operations, String(point.attributes.operation), point.value as number);
      }
      const histogram = named('backup.operation.duration');
      for (const point of histogram?.dataPoints ?? []) {
        expect(histogram?.aggregationTemporality).toBe(AggregationTemporality.DELTA);
        const value = point.value as Histogram;
        expect(value.count).toBeGreaterThan(0);
        expect(value.buckets.counts.reduce((a, b) => a + b, 0)).toBe(value.count);
        const ms = MS[Number(String(point.attributes.operation).slice(3))] as number;
        expect(value.sum).toBeCloseTo((value.count * ms) / 1000, 6);
        add(counts, String(point.attributes.operation), value.count);
      }
    };
    let finished = false;
    const done = Promise.all(
      workers.map(async (worker, i) => {
        for (let round = 0; round < ROUNDS; round++) {
          await worker.run({ kind: 'loop', count: PER_ROUND, ms: MS[i] as number, labels: { operation: `op-${i}` } });
        }
      }),
    ).finally(() => {
      finished = true;
    });
    let collections = 0;
    while (!finished) {
      await take();
      collections++;
      // A collection settles in microtasks alone: let the workers' answers in between.
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await done;
    await take();
    expect(collections).toBeGreaterThanOrEqual(4);
    for (let i = 0; i < WORKERS; i++) {
      expect(operations.get(`op-${i}`)).toBe(ROUNDS * PER_ROUND);
      expect(counts.get(`op-${i}`)).toBe(ROUNDS * PER_ROUND);
    }
    // Nothing recorded since: the next collection has no point at all.
    const { resourceMetrics } = await reader.collect();
    const histogram = resourceMetrics.scopeMetrics
      .flatMap((s) => s.metrics)
      .find((m) => m.descriptor.name === 'backup.operation.duration');
    expect(histogram?.dataPoints ?? []).toEqual([]);
  });
});
