// The main thread's side of a worker link, in process: the stats connected to a link (connectBackupStats, called
// here on the main thread so that the test needs no thread) write into the link's shared memory, and the main
// thread's stats read it at every flush, every collection of their histograms and their shutdown, into the series
// of the same labels. The worker-thread cases are test/workers.
import type { Histogram, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { createBackupStats, createHistogramProducer, type WorkerLink } from 'backupstats';
import { connectBackupStats, type WorkerBackupStats } from 'backupstats/worker';
import { describe, expect, onTestFinished } from 'vitest';
import { createCountingProvider } from '../support/counting-provider.js';
import { it } from '../support/fixtures.js';
import { createHarness, valuesByKey } from '../support/harness.js';
import { EDGE_DURATIONS_MS, statsWithHistograms } from '../support/histogram-stats.js';

const ROOT = { component: '-', implementation: '-', operation: '-' };

/** Stats with no provider whose histograms a producer hands to a reader of its own. */
function pendingStatsWithHistograms() {
  const producer = createHistogramProducer();
  const harness = createHarness(undefined, undefined, [[producer]]);
  const stats = createBackupStats({ histogramProducers: [producer] });
  onTestFinished(async () => {
    await stats.shutdown();
    await harness.shutdown();
  });
  return { stats, collect: () => harness.collect() };
}

/** The backup duration histogram's points of one export. */
function histogramPoints(exported: ResourceMetrics): Histogram[] {
  const metric = exported.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .find((m) => m.descriptor.name === 'backup.operation.duration');
  return (metric?.dataPoints ?? []).map((point) => point.value as Histogram);
}

/** The worker's side of `link`, let go when the test ends. */
function connect(link: WorkerLink): WorkerBackupStats {
  const worker = connectBackupStats(link);
  onTestFinished(() => worker.close());
  return worker;
}

describe("a link's records, read by the main thread", () => {
  it('are exported at the next collection in the series of their labels; invalid ones are counted', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    onTestFinished(() => stats.shutdown());
    const worker = connect(stats.workerLink());
    const read = worker.backup.scope({ operation: 'Source:Read' });
    read.timedIncrementBytes(100, 2);
    read.timedIncrementBytes(50, 1);
    worker.restore.timedIncrement(-1);
    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.operations{-,-,Source:Read}')).toBe(2);
    expect(values.get('backup.bytes{-,-,Source:Read}')).toBe(150);
    expect(values.get('backup.time{-,-,Source:Read}')).toBeCloseTo(0.003, 9);
    expect(values.get('backupstats.invalid_measurements{restore}')).toBe(1);
    expect(values.get('backupstats.invalid_measurements{backup}')).toBe(0);
  });

  it('drop an infinite duration of weight 0 (its time, ∞ × 0, is NaN) and count it invalid, as the main thread does', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    onTestFinished(() => stats.shutdown());
    const worker = connect(stats.workerLink());
    const read = worker.backup.scope({ operation: 'Source:Read' });
    read.timedIncrementBytes(100, 2);
    read.timedIncrementBytes(5, Number.POSITIVE_INFINITY, 0);
    read.timedIncrement(Number.POSITIVE_INFINITY, 0);
    stats.backup.scope({ operation: 'Source:Write' }).timedIncrement(Number.POSITIVE_INFINITY, 0);
    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.operations{-,-,Source:Read}')).toBe(1);
    expect(values.get('backup.bytes{-,-,Source:Read}')).toBe(100);
    expect(values.get('backup.time{-,-,Source:Read}')).toBeCloseTo(0.002, 9);
    expect(values.get('backupstats.invalid_measurements{backup}')).toBe(3);
  });

  it('are added to the instruments by flush() itself, not only by a collection', () => {
    const harness = createHarness();
    onTestFinished(() => harness.shutdown());
    const counting = createCountingProvider(harness.provider);
    const stats = createBackupStats({ meterProvider: counting.provider, flushIntervalMillis: 2 ** 30 });
    onTestFinished(() => stats.shutdown());
    const worker = connect(stats.workerLink());
    worker.backup.timedIncrementBytes(7, 1);
    stats.flush();
    expect(counting.adds.filter((add) => add.instrument === 'backup.bytes')).toEqual([
      { instrument: 'backup.bytes', value: 7, attributes: ROOT },
    ]);
  });

  it('are read one last time at shutdown, after which a new link records nothing', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    const worker = connect(stats.workerLink());
    worker.backup.timedIncrement(4);
    await stats.shutdown();
    expect(valuesByKey(await harness.collect()).get('backup.operations{-,-,-}')).toBe(1);
    expect(stats.workerLink()).toMatchObject({ control: undefined, memory: undefined, places: 0 });
  });

  it('reach the histograms handed to a reader before any flush of the stats has read them', async () => {
    // Stats with no provider: no collection of theirs flushes (and reads the link) before the producer hands over.
    const { stats, collect } = pendingStatsWithHistograms();
    const worker = connect(stats.workerLink());
    worker.backup.timedIncrement(5);
    worker.backup.timedIncrement(15);
    expect(histogramPoints(await collect())).toEqual([
      expect.objectContaining({ count: 2, sum: 0.02, min: 0.005, max: 0.015 }),
    ]);
  });

  it('are pending once however many reads find new ones: shut down before any provider, each is counted once', async ({
    diagnostics,
  }) => {
    const { stats, collect } = pendingStatsWithHistograms();
    const worker = connect(stats.workerLink());
    stats.backup.timedIncrement(1);
    const own = worker.backup.scope({ operation: 'W' });
    own.timedIncrement(1);
    // Each collection of the histograms reads the link: the worker's series is pending from the first one on.
    await collect();
    own.timedIncrement(1);
    worker.backup.timedIncrement(1);
    await collect();
    await stats.shutdown();
    expect(diagnostics.messages).toEqual([
      'backupstats: shutdown() before any global MeterProvider was registered: 4 operations and 0 runs recorded were never exported',
    ]);
  });
});

describe('runs on the worker side', () => {
  it('record nothing, and say so once', async ({ harness, diagnostics }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    onTestFinished(() => stats.shutdown());
    const worker = connect(stats.workerLink());
    worker.backup.startRun().succeed(5);
    worker.restore.scope({ operation: 'Restore' }).startRun().fail();
    expect(diagnostics.messages).toEqual([
      'backupstats: startRun() in a worker thread records nothing: a run is the whole job, recorded on the main thread (start it on the stats that made the link); records of operations work in the worker',
    ]);
    const values = valuesByKey(await harness.collect());
    expect([...values.keys()].filter((key) => key.includes('.runs'))).toEqual([]);
  });
});

describe('histogram buckets of a link', () => {
  for (const aggregation of ['explicit', 'exponential'] as const) {
    it(`a connected worker puts every duration in the ${aggregation} buckets the main thread puts it in`, async () => {
      const main = statsWithHistograms({}, aggregation);
      const linked = statsWithHistograms({}, aggregation);
      const worker = connect(linked.stats.workerLink());
      for (const [i, ms] of EDGE_DURATIONS_MS.entries()) {
        main.stats.backup.scope({ operation: `d-${i}` }).timedIncrement(ms);
        worker.backup.scope({ operation: `d-${i}` }).timedIncrement(ms);
      }
      const [expected, actual] = [await main.collect(), await linked.collect()];
      for (const i of EDGE_DURATIONS_MS.keys()) {
        const point = actual.histogram({ operation: `d-${i}` });
        expect(point?.count, `${EDGE_DURATIONS_MS[i]} ms`).toBe(1);
        expect(point, `${EDGE_DURATIONS_MS[i]} ms`).toEqual(expected.histogram({ operation: `d-${i}` }));
      }
    });
  }
});

describe('a link made without workers serves a pool of many workers', () => {
  it('serves 128 workers connected at once, each counted; the 129th is refused, naming what would do', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    onTestFinished(() => stats.shutdown());
    const link = stats.workerLink();
    const workers = Array.from({ length: 128 }, () => connect(link));
    for (const [i, worker] of workers.entries())
      worker.backup.scope({ operation: 'Compressor:Write' }).timedIncrementBytes(i, 1);
    expect(() => connectBackupStats(link)).toThrow(
      'backupstats: connectBackupStats link is a link whose 128 place(s) are all taken by live workers; accepted: a link with a free place: stats.workerLink({ workers: N }) for N workers recording at once, or a link per worker',
    );
    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.operations{-,-,Compressor:Write}')).toBe(128);
    expect(values.get('backup.bytes{-,-,Compressor:Write}')).toBe((127 * 128) / 2);
  });
});
