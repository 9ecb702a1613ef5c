// An instrument that throws in the middle of a flush (a custom MeterProvider, a View's attributes processor)
// must not make the retry add any measurement twice, and shutdown() must reject, never throw, and still close. The
// report holds what the instruments took, no more.
import type { MeterProvider as ApiMeterProvider, Counter, Meter } from '@opentelemetry/api';
import {
  AggregationTemporality,
  type IAttributesProcessor,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type ResourceMetrics,
  type ViewOptions,
} from '@opentelemetry/sdk-metrics';
import { createBackupStats } from 'backupstats';
import { reportData } from 'backupstats/report';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { valuesByKey } from '../support/harness.js';

const LABELS = { component: 'C', implementation: 'I', operation: 'O' };

/** A real provider whose exports are collected on demand, built with `views`. */
function realProvider(views: ViewOptions[] = []): { provider: MeterProvider; collect(): Promise<ResourceMetrics> } {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 2 ** 30 });
  const provider = new MeterProvider({ readers: [reader], views });
  onTestFinished(() => provider.shutdown());
  return {
    provider,
    async collect() {
      exporter.reset();
      await reader.forceFlush();
      return exporter.getMetrics().at(-1) as ResourceMetrics;
    },
  };
}

/**
 * A MeterProvider in front of `real` whose counter `name` throws `failures` times before it works: a custom
 * provider or a proxy with a bug or a guard.
 */
function throwingProvider(real: ApiMeterProvider, name: string, failures: number): ApiMeterProvider {
  let left = failures;
  return {
    getMeter(meterName, version, options) {
      const meter = real.getMeter(meterName, version, options);
      return new Proxy(meter, {
        get(target, property: keyof Meter) {
          if (property !== 'createCounter') return (target[property] as (...args: unknown[]) => unknown).bind(target);
          return (counterName: string, counterOptions: object): Counter => {
            const counter = target.createCounter(counterName, counterOptions);
            if (counterName !== name) return counter;
            return {
              add(value, attributes, context) {
                if (left > 0) {
                  left -= 1;
                  throw new Error('transient');
                }
                counter.add(value, attributes, context);
              },
            };
          };
        },
      });
    },
  };
}

/** A View on `instrumentName` whose attributes processor throws `failures` times before it works. */
function throwingView(instrumentName: string, failures: number): ViewOptions {
  let left = failures;
  const processor: IAttributesProcessor = {
    process(incoming) {
      if (left > 0) {
        left -= 1;
        throw new Error('processor failed');
      }
      return incoming;
    },
  };
  return { instrumentName, attributesProcessors: [processor] };
}

describe('an instrument that throws in the middle of a flush', () => {
  it('on a custom provider: flush() throws, the retry adds each measurement exactly once', async ({ diagnostics }) => {
    const { provider, collect } = realProvider();
    const stats = createBackupStats({
      meterProvider: throwingProvider(provider, 'backup.bytes', 1),
      flushIntervalMillis: 2 ** 30,
    });
    const first = stats.backup.scope(LABELS);
    const second = stats.backup.scope({ ...LABELS, operation: 'Other' });
    // A series' first record goes to the instruments at once (its start): one without bytes, past the failing one.
    first.timedIncrement(0, 0);
    second.timedIncrement(0, 0);
    for (let i = 0; i < 10; i++) first.timedIncrementBytes(100, 1);
    second.timedIncrementBytes(7, 2);
    // An Error to compare with, not a string: vitest's toThrow('text') also passes when `undefined` is thrown.
    expect(() => stats.flush()).toThrow(new Error('transient'));
    // The handle after the failing one was not held back.
    let values = valuesByKey(await collect());
    expect(values.get('backup.operations{C,I,Other}')).toBe(2);
    expect(values.get('backup.bytes{C,I,Other}')).toBe(7);

    stats.flush();
    values = valuesByKey(await collect());
    expect(values.get('backup.operations{C,I,O}')).toBe(11);
    expect(values.get('backup.bytes{C,I,O}')).toBe(1000);
    expect(values.get('backup.time{C,I,O}')).toBeCloseTo(0.01, 12);
    expect(values.get('backup.operations{C,I,Other}')).toBe(2);
    // flush() reported it to its caller by throwing; the collection's own flush then succeeded: nothing for diag.
    expect(diagnostics.messages).toEqual([]);
    await stats.shutdown();
  });

  it("the report's series hold what the instruments took: after failed flushes, what was exported; after the retry, all", async ({
    diagnostics,
  }) => {
    const { provider } = realProvider();
    const stats = createBackupStats({
      meterProvider: throwingProvider(provider, 'backup.bytes', 2),
      flushIntervalMillis: 2 ** 30,
    });
    const first = stats.backup.scope(LABELS);
    first.timedIncrement(0, 0);
    for (let i = 0; i < 10; i++) first.timedIncrementBytes(100, 1);
    expect(() => stats.flush()).toThrow(new Error('transient'));
    // The report's own flush fails too (said through diag): the operations counter took every record, the bytes
    // counter threw, and the time counter after it was not reached.
    expect(reportData(stats).series).toEqual([expect.objectContaining({ count: 11, bytes: 0, seconds: 0 })]);
    expect(diagnostics.messages).toHaveLength(1);
    expect(reportData(stats).series).toEqual([expect.objectContaining({ count: 11, bytes: 1000, seconds: 0.01 })]);
    await stats.shutdown();
  });

  it('unthrottled (flushIntervalMillis 0): the record does not throw, the next flush adds what is left exactly once', async ({
    diagnostics,
  }) => {
    const { provider, collect } = realProvider();
    const stats = createBackupStats({
      meterProvider: throwingProvider(provider, 'restore.bytes', 1),
      flushIntervalMillis: 0,
    });
    const handle = stats.restore.scope(LABELS);
    for (let i = 0; i < 10; i++) expect(() => handle.timedIncrementBytes(100, 1)).not.toThrow();
    stats.flush();
    const values = valuesByKey(await collect());
    expect(values.get('restore.operations{C,I,O}')).toBe(10);
    expect(values.get('restore.bytes{C,I,O}')).toBe(1000);
    expect(values.get('restore.time{C,I,O}')).toBeCloseTo(0.01, 12);
    expect(diagnostics.messages.filter((m) => m.includes('transient'))).toHaveLength(1);
    await stats.shutdown();
  });

  it("in a View's attributes processor during a collection: the next collection exports each measurement exactly once", async ({
    diagnostics,
  }) => {
    const { provider, collect } = realProvider([throwingView('backup.bytes', 1)]);
    const stats = createBackupStats({ meterProvider: provider, flushIntervalMillis: 2 ** 30 });
    const handle = stats.backup.scope(LABELS);
    for (let i = 0; i < 10; i++) handle.timedIncrementBytes(100, 1);

    // This collection's callback meets the failing processor: what it could not add waits for the next one.
    let values = valuesByKey(await collect());
    expect(values.get('backup.operations{C,I,O}')).toBe(10);
    handle.timedIncrementBytes(1, 1);
    values = valuesByKey(await collect());
    expect(values.get('backup.operations{C,I,O}')).toBe(11);
    expect(values.get('backup.bytes{C,I,O}')).toBe(1001);
    expect(values.get('backup.time{C,I,O}')).toBeCloseTo(0.011, 12);
    expect(diagnostics.messages.filter((m) => m.includes('processor failed'))).toHaveLength(1);
    await stats.shutdown();
  });
});

describe('shutdown() with an instrument that throws', () => {
  it('rejects instead of throwing, still closes both families and detaches the collection callback', async ({
    diagnostics,
  }) => {
    const { provider, collect } = realProvider();
    const stats = createBackupStats({
      meterProvider: throwingProvider(provider, 'backup.bytes', 1),
      flushIntervalMillis: 2 ** 30,
    });
    // A series' first record goes to the instruments at once (its start): one without bytes, past the failing one.
    stats.backup.timedIncrement(0, 0);
    stats.restore.timedIncrement(0, 0);
    stats.backup.timedIncrementBytes(10, 1);
    stats.restore.timedIncrementBytes(20, 1);

    let closing: Promise<void> | undefined;
    expect(() => {
      closing = stats.shutdown();
    }).not.toThrow();
    await expect(closing).rejects.toThrow(new Error('transient'));
    // The second call answers with the same outcome.
    await expect(stats.shutdown()).rejects.toThrow(new Error('transient'));

    // The restore family was flushed and closed although the backup family failed first.
    stats.restore.timedIncrement(1);
    stats.backup.timedIncrement(1);
    const values = valuesByKey(await collect());
    expect(values.get('restore.operations{-,-,-}')).toBe(2);
    expect(values.get('restore.bytes{-,-,-}')).toBe(20);
    // The instance left the collection hook: the series it recorded on stay counted, as they stay in the export,
    // and nothing recorded after shutdown came in.
    expect(values.get('backupstats.scopes{backup}')).toBe(1);
    expect(values.get('backupstats.scopes{restore}')).toBe(1);
    expect(values.get('backup.operations{-,-,-}')).toBe(2);
    expect(values.has('backup.bytes{-,-,-}')).toBe(false);
    expect(diagnostics.messages.filter((m) => m.includes('after shutdown'))).toHaveLength(1);
    expect(diagnostics.messages.filter((m) => m.includes('shutdown') && m.includes('could not'))).toHaveLength(1);
  });

  it('a handle whose numbers were lost at shutdown drops what is recorded on it later, and says so', async ({
    diagnostics,
  }) => {
    const { provider } = realProvider();
    const stats = createBackupStats({
      meterProvider: throwingProvider(provider, 'backup.bytes', 1),
      flushIntervalMillis: 2 ** 30,
    });
    const handle = stats.backup.scope(LABELS);
    handle.timedIncrement(0, 0);
    handle.timedIncrementBytes(10, 1);
    await expect(stats.shutdown()).rejects.toThrow(new Error('transient'));
    handle.timedIncrementBytes(Number.MAX_SAFE_INTEGER, 1);
    handle.timedIncrementBytes(Number.MAX_SAFE_INTEGER, 1);
    // Said for this handle's family (nothing else was recorded after shutdown), and never summed into an invalid one.
    expect(diagnostics.messages.filter((m) => !m.includes('could not add'))).toEqual([
      'backupstats: a backup measurement was recorded after shutdown() and is ignored, as are any later ones',
    ]);
  });
});
