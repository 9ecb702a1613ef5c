// The report's latency quantiles, as Prometheus' histogram_quantile estimates them from the explicit buckets (linear
// within the bucket), each bucket's ends narrowed to the smallest and largest duration recorded. Boundaries of
// 10 ms, 100 ms and 1 s make every expected value a sum done by hand.
import { reportData } from 'backupstats/report';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { statsWithHistograms } from '../support/histogram-stats.js';

const BOUNDARIES = [0.01, 0.1, 1];

/** Stats with those boundaries, each named series given its durations (ms). */
function reportOf(durations: Record<string, readonly number[]>) {
  const { stats } = statsWithHistograms({ histogramBoundaries: BOUNDARIES });
  for (const [name, values] of Object.entries(durations)) {
    const [implementation, operation] = name.split(' ') as [string, string];
    const scope = stats.backup.scope({ component: 'BackupEngine', implementation, operation });
    for (const ms of values) scope.timedIncrementBytes(1, ms);
  }
  return reportData(stats);
}

describe('the quantiles of a series', () => {
  it.each([
    // Within one bucket, between the smallest and the largest: 20 + 60 × 2/4, 20 + 60 × 3.6/4, 20 + 60 × 3.96/4 ms.
    ['in one bucket', [20, 40, 60, 80], [0.05, 0.074, 0.0794]],
    // The first bucket starts at the smallest, not at 0: 2 + 6 × 1/2 ms.
    ['in the first bucket', [2, 8], [0.005, 0.0074, 0.00794]],
    // One in each bucket: the median at the top of the second bucket; above the last boundary, up to the largest.
    ['one in each bucket', [5, 50, 500, 5000], [0.1, 3.4, 4.84]],
    // An empty bucket between two: the median at the top of the first, not at the start of the next one.
    ['with an empty bucket between', [5, 500], [0.01, 0.42, 0.492]],
    // All equal: nothing to interpolate.
    ['all equal', [30, 30, 30], [0.03, 0.03, 0.03]],
  ])('%s', (_name, durations, [p50, p90, p99]) => {
    const report = reportOf({ 'Builtin Source:Read': durations });
    expect(report.boundaries).toEqual(BOUNDARIES);
    const [series] = report.series;
    expect(series?.p50).toBeCloseTo(p50 as number, 9);
    expect(series?.p90).toBeCloseTo(p90 as number, 9);
    expect(series?.p99).toBeCloseTo(p99 as number, 9);
    const [latency] = report.latency;
    expect(latency).toMatchObject({ operation: 'Source:Read', count: durations.length });
    expect(latency?.p50).toBeCloseTo(p50 as number, 9);
    expect(latency?.p90).toBeCloseTo(p90 as number, 9);
    expect(latency?.p99).toBeCloseTo(p99 as number, 9);
  });

  it('are null without histograms', async ({ harness }) => {
    const { createBackupStats } = await import('backupstats');
    const stats = createBackupStats({ meterProvider: harness.provider, histograms: false });
    stats.backup.scope({ operation: 'Source:Read' }).timedIncrementBytes(1, 5);
    const report = reportData(stats);
    expect(report.series).toEqual([expect.objectContaining({ count: 1, p50: null, p90: null, p99: null })]);
    expect(report).toMatchObject({ boundaries: [], latency: [] });
    await stats.shutdown();
  });
});

describe('the latency of an operation', () => {
  it('sums its series of every implementation: their buckets, the smallest and the largest of them', () => {
    const report = reportOf({
      'A Destination:Write': [20, 30],
      'B Destination:Write': [80],
      'B Source:Read': [3],
    });
    const write = report.latency.find((l) => l.operation === 'Destination:Write');
    expect(write).toMatchObject({ family: 'backup', count: 3, counts: [0, 3, 0, 0] });
    // 20 + 60 × 1.5/3, 20 + 60 × 2.7/3, 20 + 60 × 2.97/3 ms.
    expect(write?.p50).toBeCloseTo(0.05, 9);
    expect(write?.p90).toBeCloseTo(0.074, 9);
    expect(write?.p99).toBeCloseTo(0.0794, 9);
    const read = report.latency.find((l) => l.operation === 'Source:Read');
    expect(read).toMatchObject({ count: 1, counts: [1, 0, 0, 0], p50: 0.003, p90: 0.003, p99: 0.003 });
    // A series' own: B's single write is its every quantile.
    expect(report.series.find((s) => s.implementation === 'B' && s.operation === 'Destination:Write')).toMatchObject({
      p50: 0.08,
      p99: 0.08,
    });
  });
});
