import type { Attributes, Counter, Histogram, Meter, MetricOptions, ObservableGauge } from '@opentelemetry/api';
import type { RunSpec } from '../naming/run-naming.js';

/** A synchronous gauge as API 1.9.0 and later define it, typed here so that the older APIs' types still compile. */
export interface GaugeRecorder {
  record(value: number, attributes?: Attributes): void;
}

/** The gauges of a family's last runs, of one kind. */
export interface RunGauges<G> {
  readonly lastSuccessTime: G;
  readonly lastFailureTime: G;
  readonly lastPartialTime: G;
  readonly lastSuccessBytes: G;
  readonly lastSuccessStoredBytes: G;
}

/** The gauges' keys, in the order they are created and observed. */
export const RUN_GAUGE_KEYS = [
  'lastSuccessTime',
  'lastFailureTime',
  'lastPartialTime',
  'lastSuccessBytes',
  'lastSuccessStoredBytes',
] as const;

/** The run gauges: synchronous where the API has them, observable (and observed by the run book) before API 1.9.0. */
export type RunGaugeKinds =
  | ({ readonly synchronous: true } & RunGauges<GaugeRecorder>)
  | ({ readonly synchronous: false } & RunGauges<ObservableGauge>);

/** The run instruments of one family. */
export interface RunInstruments {
  readonly runs: Counter;
  readonly warnings: Counter;
  readonly duration: Histogram;
  readonly gauges: RunGaugeKinds;
}

/**
 * Creates the run instruments of `spec` on `meter`. The gauges are synchronous ones where the Meter has
 * `createGauge` (API 1.9.0 and later): the SDK starts a synchronous series at its first record, the run's end,
 * whereas it starts an observable one at its first collection, so that an observable gauge's first point starts
 * where it ends. On older APIs they are observable. The histogram's bucket boundaries go as advice, which the SDK
 * takes whatever the API version (sdk-metrics 1.x, 2.x and 3.x read it); an SDK that ignores advice uses its
 * default boundaries.
 */
export function createRunInstruments(meter: Meter, spec: RunSpec): RunInstruments {
  const gauge = synchronousGaugesOf(meter);
  const each = <G>(create: (options: MetricOptions & { name: string }) => G): RunGauges<G> =>
    Object.fromEntries(RUN_GAUGE_KEYS.map((key) => [key, create(spec[key])])) as unknown as RunGauges<G>;
  return {
    runs: meter.createCounter(spec.runs.name, spec.runs),
    warnings: meter.createCounter(spec.warnings.name, spec.warnings),
    duration: meter.createHistogram(spec.duration.name, spec.duration),
    gauges:
      gauge === undefined
        ? { synchronous: false, ...each((options) => meter.createObservableGauge(options.name, options)) }
        : { synchronous: true, ...each(gauge) },
  };
}

/** Creates synchronous gauges on `meter`; undefined when its API has no `createGauge` (before API 1.9.0). */
export function synchronousGaugesOf(
  meter: Meter,
): ((options: MetricOptions & { name: string }) => GaugeRecorder) | undefined {
  const createGauge = (meter as { createGauge?: unknown }).createGauge;
  if (typeof createGauge !== 'function') return undefined;
  return (options) => createGauge.call(meter, options.name, options) as GaugeRecorder;
}
