// @ts-nocheck
import type { Counter, Histogram, Meter, ObservableGauge } from '@opentelemetry/api';
import type { RunSpec } from '../naming/run-naming.js';

/** The run instruments of one family. */
export interface RunInstruments {
  readonly runs: Counter;
  readonly duration: Histogram;
  readonly lastSuccessTime: ObservableGauge;
  readonly lastFailureTime: ObservableGauge;
  readonly lastSuccessBytes: ObservableGauge;
}

/**
 * Creates the run instruments of `spec` on `meter`. The gauges are observable ones (API 1.3.0 and later; the
 * synchronous Gauge needs 1.9.0). The histogram's bucket boundaries go as advice, which the SDK takes whatever the
 * API version (sdk-metrics 1.x, 2.x and 3.x read it); an SDK that ignores advice uses its default boundaries.
 */
export function createRunInstruments(meter: Meter, spec: RunSpec): RunInstruments {
  return {
    runs: meter.createCounter(spec.runs.name, spec.runs),
    duration: meter.createHistogram(spec.duration.name, spec.duration),
    lastSuccessTime: meter.createObservableGauge(spec.lastSuccessTime.name, spec.lastSuccessTime),
    lastFailureTime: meter.createObservableGauge(spec.lastFailureTime.name, spec.lastFailureTime),
    lastSuccessBytes: meter.createObservableGauge(spec.lastSuccessBytes.name, spec.lastSuccessBytes),
  };
}
