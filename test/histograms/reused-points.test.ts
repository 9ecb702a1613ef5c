// A cumulative producer hands over again the value of a series that had no record since its previous collection
// (at a scrape most series of a large job have not changed), and builds anew the value of every series that did:
// the points stay exact either way, collection after collection.
import { createBackupStats, createHistogramProducer, type HistogramAggregation } from 'backupstats';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';

interface Point {
  readonly attributes: Record<string, unknown>;
  readonly startTime: unknown;
  readonly endTime: unknown;
  readonly value: { count: number; sum: number; buckets?: { counts: number[] }; positive?: { bucketCounts: number[] } };
}

/** The points of the backup family's histogram, by operation. */
async function pointsOf(producer: ReturnType<typeof createHistogramProducer>): Promise<Map<string, Point>> {
  const { resourceMetrics } = await producer.collect();
  const metric = resourceMetrics.scopeMetrics[0]?.metrics.find((m) => m.descriptor.name.startsWith('backup.'));
  const points = new Map<string, Point>();
  for (const point of (metric?.dataPoints ?? []) as unknown as Point[]) {
    points.set(String(point.attributes.operation), point);
  }
  return points;
}

function statsOn(aggregation: HistogramAggregation) {
  const producer = createHistogramProducer({ aggregation });
  const stats = createBackupStats({ histogramProducers: [producer], histogramBoundaries: [0.001, 0.01, 0.1] });
  onTestFinished(() => stats.shutdown());
  return { stats, producer };
}

describe.each(['explicit', 'exponential'] as const)('%s points of unchanged series', (aggregation) => {
  it('an unchanged series keeps its value object; a series recorded on since gets a new one, exact', async () => {
    const { stats, producer } = statsOn(aggregation);
    const idle = stats.backup.scope({ operation: 'idle' });
    const busy = stats.backup.scope({ operation: 'busy' });
    idle.timedIncrement(5);
    busy.timedIncrement(5);
    busy.timedIncrement(50);
    const first = await pointsOf(producer);
    busy.timedIncrement(0.5, 3);
    const second = await pointsOf(producer);

    expect(second.get('idle')?.value).toBe(first.get('idle')?.value);
    expect(second.get('idle')?.startTime).toEqual(first.get('idle')?.startTime);
    expect(second.get('idle')?.value).toMatchObject({ count: 1, sum: 0.005 });
    expect(second.get('busy')?.value).not.toBe(first.get('busy')?.value);
    expect(second.get('busy')?.value).toMatchObject({ count: 5, sum: 0.0565 });
    // The value handed over first was not changed by the records after it.
    expect(first.get('busy')?.value).toMatchObject({ count: 2, sum: 0.055 });
    if (aggregation === 'explicit') {
      expect(second.get('idle')?.value.buckets?.counts).toEqual([0, 1, 0, 0]);
      expect(second.get('busy')?.value.buckets?.counts).toEqual([3, 1, 1, 0]);
    }

    // Unchanged again, now the other way round: each keeps or renews its value by its own records.
    idle.timedIncrement(2_000);
    const third = await pointsOf(producer);
    expect(third.get('busy')?.value).toBe(second.get('busy')?.value);
    expect(third.get('idle')?.value).not.toBe(second.get('idle')?.value);
    expect(third.get('idle')?.value).toMatchObject({ count: 2, sum: 2.005 });
    if (aggregation === 'explicit') expect(third.get('idle')?.value.buckets?.counts).toEqual([0, 1, 0, 1]);
  });
});
