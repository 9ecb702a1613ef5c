import {
  AggregationTemporality,
  InMemoryMetricExporter,
  PeriodicExportingMetricReader,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import { type BackupStats, createBackupStats, type Stats } from 'backupstats';
import { startBackupStats } from 'backupstats/setup';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { points, valuesByKey } from '../support/harness.js';

describe('maxScopes', () => {
  it('past the bound, records land in one overflow series: totals stay exact and handles stay bounded', async ({
    harness,
  }) => {
    const maxScopes = 10;
    const stats = createBackupStats({ meterProvider: harness.provider, maxScopes });
    let bytes = 0;
    for (let i = 0; i < 1000; i++) {
      const handle = stats.backup.scope({ operation: `op-${i}` });
      handle.timedIncrementBytes(i + 1, 1);
      bytes += i + 1;
    }
    const exported = await harness.collect();
    const values = valuesByKey(exported);
    // One place is kept for the overflow series, one holds the root: eight op-N series hold numbers.
    expect(values.get('backupstats.scopes{backup}')).toBe(maxScopes - 2);

    const series = points(exported).filter((p) => p.name === 'backup.bytes');
    // Eight op-N series (the root recorded nothing) plus the overflow series.
    expect(series).toHaveLength(maxScopes - 1);
    expect(series.reduce((sum, p) => sum + p.value, 0)).toBe(bytes);
    expect(values.get('backup.operations{overflow}')).toBe(1000 - (maxScopes - 2));
    await stats.shutdown();
  });

  it('an overflow handle keeps its labels for further scoping and still records into overflow', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, maxScopes: 3 });
    const kept = stats.backup.scope({ component: 'Kept' });
    const late = stats.backup.scope({ component: 'Late' });
    // Scoping from the overflow handle back to a known label set finds the memoized handle.
    expect(late.scope({ component: 'Kept' })).not.toBe(kept);
    expect(stats.backup.scope({ component: 'Kept' })).toBe(kept);
    late.scope({ operation: 'x' }).timedIncrementBytes(5, 1);
    late.timedIncrement(1);
    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.operations{overflow}')).toBe(2);
    expect(values.get('backup.bytes{overflow}')).toBe(5);
    await stats.shutdown();
  });
});

/**
 * Records once on each of `distinct` handles, the ones past the bound first so that the stats' overflow series
 * is the first series of the collection window, then checks that the SDK folded nothing: every held scope
 * exported its own series and the overflow series holds exactly the records made past the bound.
 */
async function expectNothingFoldedBySdk(
  stats: BackupStats,
  collect: () => Promise<ResourceMetrics>,
  distinct: number,
): Promise<void> {
  const handles: Stats[] = [stats.backup];
  for (let i = 1; i < distinct; i++) handles.push(stats.backup.scope({ component: `c${i}` }));
  for (const handle of [...handles].reverse()) handle.timedIncrement(1);
  const exported = await collect();
  const held = valuesByKey(exported).get('backupstats.scopes{backup}') ?? 0;
  expect(held).toBeGreaterThan(1);
  expect(held).toBeLessThan(distinct);
  const operations = points(exported).filter((p) => p.name === 'backup.operations');
  const regular = operations.filter((p) => p.attributes['otel.metric.overflow'] === undefined);
  const overflow = operations.filter((p) => p.attributes['otel.metric.overflow'] === true);
  expect(regular).toHaveLength(held);
  expect(regular.every((p) => p.value === 1)).toBe(true);
  expect(overflow.map((p) => p.value)).toEqual([distinct - held]);
}

describe('the bound against the SDK own cardinality limit (real SDK)', () => {
  it('default maxScopes on a provider the user built with the stock limit: the SDK folds no held scope into its overflow', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    await expectNothingFoldedBySdk(stats, () => harness.collect(), 2500);
    await stats.shutdown();
  });

  it.each([undefined, 3000])(
    'maxScopes %s on the provider startBackupStats builds: the SDK folds no held scope into its overflow',
    async (maxScopes) => {
      const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
      const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 2 ** 30 });
      const stats = await startBackupStats({ env: { OTEL_METRICS_EXPORTER: 'none' }, readers: [reader], maxScopes });
      onTestFinished(() => stats.shutdown());
      const collect = async (): Promise<ResourceMetrics> => {
        exporter.reset();
        await reader.forceFlush();
        return exporter.getMetrics().at(-1) as ResourceMetrics;
      };
      await expectNothingFoldedBySdk(stats, collect, (maxScopes ?? 1999) + 500);
    },
  );
});
