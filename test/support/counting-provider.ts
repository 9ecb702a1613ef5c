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
  /** Every `add` call that went through, in order. */
  readonly adds: readonly AddCall[];
  /** How many times a batch observable callback was added to one of its Meters. */
  readonly addedCallbacks: number;
  /** How many times a batch observable callback was removed from one of its Meters. */
  readonly removedCallbacks: number;
  /** Forgets the `add` calls seen so far. */
  clearAdds(): void;
  /** Makes the `nth` next `add` on `instrument` (1: the very next) throw `error`, once; it adds nothing. */
  failAdd(instrument: string, nth: number, error: Error): void;
}

export function createCountingProvider(real: MeterProvider): CountingProvider {
  const adds: AddCall[] = [];
  const failures = new Map<string, { remaining: number; error: Error }>();
  let addedCallbacks = 0;
  let removedCallbacks = 0;

  const counting = (instrument: string, counter: Counter): Counter => ({
    add(value, attributes, context) {
      const failure = failures.get(instrument);
      if (failure !== undefined && --failure.remaining === 0) {
        failures.delete(instrument);
        throw failure.error;
      }
      adds.push({ instrument, value, attributes });
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
        createObservableGauge: meter.createObservableGauge.bind(meter),
        createObservableCounter: meter.createObservableCounter.bind(meter),
        createObservableUpDownCounter: meter.createObservableUpDownCounter.bind(meter),
        createCounter: <A extends Attributes>(counterName: string, counterOptions?: MetricOptions) =>
          counting(counterName, meter.createCounter(counterName, counterOptions)) as Counter<A>,
        addBatchObservableCallback(callback, observables) {
          addedCallbacks += 1;
          meter.addBatchObservableCallback(callback, observables);
        },
        removeBatchObservableCallback(callback, observables) {
          removedCallbacks += 1;
          meter.removeBatchObservableCallback(callback, observables);
        },
      };
    },
  };

  return {
    provider,
    adds,
    get addedCallbacks() {
      return addedCallbacks;
    },
    get removedCallbacks() {
      return removedCallbacks;
    },
    clearAdds: () => {
      adds.length = 0;
    },
    failAdd(instrument, nth, error) {
      failures.set(instrument, { remaining: nth, error });
    },
  };
}
