import type { Attributes, Counter, Meter, MeterProvider, MetricOptions } from '@opentelemetry/api';

/** One `add` call on a counter created through a {@link CountingProvider}. */
export interface AddCall {
  readonly instrument: string;
  readonly value: number;
  readonly attributes: Attributes | undefined;
}

/**
 * An OpenTelemetry MeterProvider that hands everything to a real one and keeps every counter `add` call, so
 * that a test sees when and how often backupstats calls into OpenTelemetry without collecting (a collection
 * would flush by itself).
 */
export interface CountingProvider {
  /** The provider to give to `createBackupStats`. */
  readonly provider: MeterProvider;
  /**
   * Every `add` call that went through, in order, but the self-metrics' (`backupstats.*`), which the collection
   * hook adds to when an instance joins or leaves and in every collection (test/core/self-metrics.test.ts).
   */
  readonly adds: readonly AddCall[];
  /** How many batch observable callbacks that observe the instrument `name` were added to its Meters. */
  addedCallbacks(name: string): number;
  /** How many batch observable callbacks that observe the instrument `name` were removed from its Meters. */
  removedCallbacks(name: string): number;
  /** Forgets the `add` calls seen so far. */
  clearAdds(): void;
  /** Makes the `nth` next `add` on `instrument` (1: the very next) throw `error`, once; it adds nothing. */
  failAdd(instrument: string, nth: number, error: Error): void;
}

export function createCountingProvider(real: MeterProvider): CountingProvider {
  const adds: AddCall[] = [];
  const failures = new Map<string, { remaining: number; error: Error }>();
  // The name of every observable instrument created through the provider, and the callbacks on each.
  const names = new WeakMap<object, string>();
  const added: string[] = [];
  const removed: string[] = [];
  const named = <O extends object>(name: string, observable: O): O => {
    names.set(observable, name);
    return observable;
  };
  const observed = (observables: readonly object[]): string[] => observables.map((o) => names.get(o) ?? '?');

  const counting = (instrument: string, counter: Counter): Counter => ({
    add(value, attributes, context) {
      const failure = failures.get(instrument);
      if (failure !== undefined && --failure.remaining === 0) {
        failures.delete(instrument);
        throw failure.error;
      }
      if (!instrument.startsWith('backupstats.')) adds.push({ instrument, value, attributes });
      counter.add(value, attributes, context);
    },
  });

  const provider: MeterProvider = {
    getMeter(name, version, options): Meter {
      const meter = real.getMeter(name, version, options);
      return {
        createGauge: meter.createGauge.bind(meter),
        createHistogram: meter.createHistogram.bind(meter),
        createUpDownCounter: meter.createUpDownCounter.bind(meter),
        createObservableGauge: (name, options) => named(name, meter.createObservableGauge(name, options)),
        createObservableCounter: (name, options) => named(name, meter.createObservableCounter(name, options)),
        createObservableUpDownCounter: (name, options) =>
          named(name, meter.createObservableUpDownCounter(name, options)),
        createCounter: <A extends Attributes>(counterName: string, counterOptions?: MetricOptions) =>
          counting(counterName, meter.createCounter(counterName, counterOptions)) as Counter<A>,
        addBatchObservableCallback(callback, observables) {
          added.push(...observed(observables));
          meter.addBatchObservableCallback(callback, observables);
        },
        removeBatchObservableCallback(callback, observables) {
          removed.push(...observed(observables));
          meter.removeBatchObservableCallback(callback, observables);
        },
      };
    },
  };

  return {
    provider,
    adds,
    addedCallbacks: (name) => added.filter((n) => n === name).length,
    removedCallbacks: (name) => removed.filter((n) => n === name).length,
    clearAdds: () => {
      adds.length = 0;
    },
    failAdd(instrument, nth, error) {
      failures.set(instrument, { remaining: nth, error });
    },
  };
}
