// Which series keep a latency histogram and what reaches it: every series and the overflow series when a producer
// hands them to a reader, an operation not timed (weight 0) never, and none at all without a producer.
import type { Histogram, MetricData } from '@opentelemetry/sdk-metrics';
import { createBackupStats } from 'backupstats';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createHarness } from '../support/harness.js';
import { statsWithHistograms } from '../support/histogram-stats.js';

async function histogramMetric(harness: ReturnType<typeof createHarness>, name: string): Promise<MetricData> {
  const exported = await harness.collect();
  const metric = exported.scopeMetrics.flatMap((scope) => scope.metrics).find((m) => m.descriptor.name === name);
  if (metric === undefined) throw new Error(`no metric ${name}`);
  return metric;
}

describe('series histograms', () => {
  it('an operation not timed (weight 0) adds nothing to the histogram, not even its duration as min or max', async () => {
    const { stats, harness } = statsWithHistograms();
    stats.backup.timedIncrement(1000, 0);
    stats.backup.timedIncrementBytes(10, 2000, 0);
    stats.backup.timedIncrement(5);
    const metric = await histogramMetric(harness, 'backup.operation.duration');
    expect(metric.dataPoints.map((point) => point.value as Histogram)).toEqual([
      expect.objectContaining({ count: 1, sum: 0.005, min: 0.005, max: 0.005 }),
    ]);
  });

  it("the overflow series' histogram is handed to the reader too, with the overflow attributes", async () => {
    const { stats, harness } = statsWithHistograms({ maxScopes: 2 });
    stats.restore.timedIncrement(1);
    stats.restore.scope({ component: 'past the bound' }).timedIncrement(2);
    stats.restore.scope({ component: 'also past it' }).timedIncrement(4);
    const metric = await histogramMetric(harness, 'restore.operation.duration');
    expect(metric.dataPoints.map((point) => [point.attributes, (point.value as Histogram).count])).toEqual([
      [{ component: '-', implementation: '-', operation: '-' }, 1],
      [{ 'otel.metric.overflow': true }, 2],
    ]);
  });

  it.each([
    ['otel', 'backup.operation.duration', 'Duration of backup operations.'],
    ['vitess', 'backup_operation_duration_seconds', 'backup operation duration in seconds'],
  ] as const)('%s naming: the histogram is %s, described as "%s", in seconds', async (naming, name, description) => {
    const { stats, harness } = statsWithHistograms({ naming });
    stats.backup.timedIncrement(5);
    const metric = await histogramMetric(harness, name);
    expect(metric.descriptor).toMatchObject({ name, description, unit: 's' });
  });

  it('without a producer no histogram is kept, so a worker link carries no boundaries; with one, it does', async () => {
    const harness = createHarness();
    const without = createBackupStats({ meterProvider: harness.provider });
    onTestFinished(async () => {
      await without.shutdown();
      await harness.shutdown();
    });
    const { stats } = statsWithHistograms();
    // What a link carries is internal (WorkerLink is opaque): read here as it travels to a worker.
    const boundaries = (link: unknown) => (link as { histogramBoundaries?: unknown }).histogramBoundaries;
    expect(boundaries(without.workerLink())).toBeUndefined();
    expect(boundaries(stats.workerLink())).toEqual(expect.arrayContaining([0.00001, 100]));
  });
});
