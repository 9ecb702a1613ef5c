// The check that a delta producer feeds one reader (delta.test.ts: one given to two readers is refused), from the
// side of what it accepts: two readers of one provider with a delta producer each, every reader getting the truth;
// a provider of another implementation, whatever fields it has, which is not checked; and a producer found in the
// readers' lists by its identity alone, whatever its own properties.
import type { Meter, MeterProvider } from '@opentelemetry/api';
import { AggregationTemporality, type Histogram, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { createBackupStats, createHistogramProducer, type HistogramProducer } from 'backupstats';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { createHarness } from '../support/harness.js';

const { DELTA } = AggregationTemporality;

/** The backup duration histogram's counts in an export, by operation. */
function counts(exported: ResourceMetrics): Record<string, number> {
  const metric = exported.scopeMetrics
    .flatMap((s) => s.metrics)
    .find((m) => m.descriptor.name === 'backup.operation.duration');
  return Object.fromEntries(
    (metric?.dataPoints ?? []).map((p) => [String(p.attributes.operation), (p.value as Histogram).count]),
  );
}

/** Stats shut down when the test ends. */
function stats(options: Parameters<typeof createBackupStats>[0]) {
  const made = createBackupStats(options);
  onTestFinished(() => made.shutdown());
  return made;
}

describe('a delta producer per reader', () => {
  it('two readers of one provider, a delta producer each: accepted, and each reader gets every interval', async () => {
    const [first, second] = [
      createHistogramProducer({ temporality: 'delta' }),
      createHistogramProducer({ temporality: 'delta' }),
    ];
    const harness = createHarness([DELTA, DELTA], [], [[first], [second]]);
    onTestFinished(() => harness.shutdown());
    const recorded = stats({ meterProvider: harness.provider, histogramProducers: [first, second] });
    const op = recorded.backup.scope({ operation: 'w' });
    for (let i = 0; i < 3; i++) op.timedIncrement(1);
    expect(counts(await harness.collect(0))).toEqual({ w: 3 });
    op.timedIncrement(1);
    expect(counts(await harness.collect(1))).toEqual({ w: 4 });
    expect(counts(await harness.collect(0))).toEqual({ w: 1 });
  });

  it('a provider of another implementation is not checked, whatever fields it has', () => {
    const real = createHarness();
    onTestFinished(() => real.shutdown());
    const producer = createHistogramProducer({ temporality: 'delta' });
    const other = (sharedState: unknown): MeterProvider =>
      Object.assign(
        { getMeter: (name: string, version?: string): Meter => real.provider.getMeter(name, version) },
        { _sharedState: sharedState },
      );
    for (const sharedState of [
      undefined,
      {},
      { metricCollectors: 'not a list' },
      { metricCollectors: [null, undefined, {}, { _metricReader: null }, { _metricReader: {} }] },
      { metricCollectors: [{ _metricReader: { _metricProducers: 'not a list' } }] },
    ]) {
      const made = stats({ meterProvider: other(sharedState), histogramProducers: [producer] });
      made.backup.timedIncrement(1);
    }
  });

  it("a producer is found in the readers' lists by its identity alone, whatever its own properties", async () => {
    // A text that is part of any other, and a mark that makes a string's includes() throw: neither is looked at.
    const producer: HistogramProducer = Object.assign(createHistogramProducer({ temporality: 'delta' }), {
      toString: () => 'e',
      [Symbol.match]: true,
    });
    const harness = createHarness([DELTA], [], [[producer]]);
    onTestFinished(() => harness.shutdown());
    stats({ meterProvider: harness.provider, histogramProducers: [producer] }).backup.timedIncrement(1);
    expect(counts(await harness.collect())).toEqual({ '-': 1 });
    // On the API's no-op global provider, which has no readers to look at.
    stats({ histogramProducers: [producer] });
  });
});
