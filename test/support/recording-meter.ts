import type { Meter, MeterProvider, Observable } from '@opentelemetry/api';

/** One instrument created through a {@link RecordingMeterProvider}: which Meter method made it, and its name. */
export interface Created {
  readonly method: string;
  readonly name: string;
}

/**
 * An OpenTelemetry MeterProvider that hands everything to a real one and keeps what backupstats asked of its
 * Meters: each instrument created (by which method) and the instruments of each batch callback added or removed.
 * `withoutCreateGauge` gives Meters as API versions before 1.9.0 have them, without `createGauge`.
 */
export interface RecordingMeterProvider {
  /** The provider to give to `createBackupStats`. */
  readonly provider: MeterProvider;
  /** Every instrument created, in order. */
  readonly created: readonly Created[];
  /** The instruments' names of each batch callback added, in order. */
  readonly addedCallbacks: readonly (readonly string[])[];
  /** The instruments' names of each batch callback removed, in order. */
  readonly removedCallbacks: readonly (readonly string[])[];
}

export function createRecordingMeterProvider(
  real: MeterProvider,
  options: { withoutCreateGauge?: boolean } = {},
): RecordingMeterProvider {
  const created: Created[] = [];
  const addedCallbacks: string[][] = [];
  const removedCallbacks: string[][] = [];
  // The name of every instrument created through the provider; a callback's instruments are named by it.
  const names = new WeakMap<object, string>();
  const named = (observables: readonly Observable[]): string[] => observables.map((o) => names.get(o) ?? '?');
  const provider: MeterProvider = {
    getMeter(meterName, version, meterOptions): Meter {
      const meter = real.getMeter(meterName, version, meterOptions);
      const record =
        <A extends unknown[], I extends object>(method: string, create: (name: string, ...rest: A) => I) =>
        (name: string, ...rest: A): I => {
          created.push({ method, name });
          const instrument = create(name, ...rest);
          names.set(instrument, name);
          return instrument;
        };
      const recording: Meter = {
        createGauge: record('createGauge', meter.createGauge.bind(meter)),
        createHistogram: record('createHistogram', meter.createHistogram.bind(meter)),
        createCounter: record('createCounter', meter.createCounter.bind(meter)),
        createUpDownCounter: record('createUpDownCounter', meter.createUpDownCounter.bind(meter)),
        createObservableGauge: record('createObservableGauge', meter.createObservableGauge.bind(meter)),
        createObservableCounter: record('createObservableCounter', meter.createObservableCounter.bind(meter)),
        createObservableUpDownCounter: record(
          'createObservableUpDownCounter',
          meter.createObservableUpDownCounter.bind(meter),
        ),
        addBatchObservableCallback(callback, observables) {
          addedCallbacks.push(named(observables));
          meter.addBatchObservableCallback(callback, observables);
        },
        removeBatchObservableCallback(callback, observables) {
          removedCallbacks.push(named(observables));
          meter.removeBatchObservableCallback(callback, observables);
        },
      };
      if (options.withoutCreateGauge === true) delete (recording as { createGauge?: unknown }).createGauge;
      return recording;
    },
  };
  return { provider, created, addedCallbacks, removedCallbacks };
}
