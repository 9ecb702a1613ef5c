// The report's latency distributions are the exported histograms': per operation, the same explicit boundaries and
// the same count in every bucket as the MetricReader received (a merge once summed them from the split exponential
// buckets' counts alone, and nothing caught it).
import { reportData } from 'backupstats/report';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { EDGE_DURATIONS_MS, statsWithHistograms } from '../support/histogram-stats.js';

describe('the report’s latency distributions', () => {
  it('hold, bucket by bucket, what the reader received for each operation', async () => {
    const { stats, collect } = statsWithHistograms();
    const engine = stats.backup.scope({ component: 'BackupEngine', implementation: 'Builtin' });
    const read = engine.scope({ operation: 'Source:Read' });
    const write = engine.scope({ operation: 'Destination:Write' });
    for (const [i, ms] of EDGE_DURATIONS_MS.entries()) {
      read.timedIncrementBytes(4096, ms);
      for (let n = 0; n <= i; n++) write.timedIncrementBytes(512, ms * 0.7 + 0.003);
    }
    const report = reportData(stats);
    const exported = await collect();

    expect(report.latency.map((l) => l.operation).sort()).toEqual(['Destination:Write', 'Source:Read']);
    for (const latency of report.latency) {
      const histogram = exported.histogram({
        component: 'BackupEngine',
        implementation: 'Builtin',
        operation: latency.operation,
      });
      expect(histogram, latency.operation).toBeDefined();
      expect(report.boundaries).toEqual(histogram?.buckets.boundaries);
      expect(latency.counts, latency.operation).toEqual(histogram?.buckets.counts);
      expect(latency.count).toBe(histogram?.count);
    }
  });
});
