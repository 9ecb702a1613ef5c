import type { Meter, ObservableGauge } from '@opentelemetry/api';
import type { ProgressSpec } from '../naming/progress-naming.js';
import { type GaugeRecorder, synchronousGaugesOf } from './run-instruments.js';

/** The gauges of the runs in progress of one family, of one kind. */
export interface ProgressGauges<G> {
  readonly active: G;
  readonly progress: G;
  readonly remainingTime: G;
  readonly lastProgressTime: G;
  readonly phase: G;
}

/** The progress gauges: synchronous where the API has them, observable (and observed by the run book) before API 1.9.0. */
export type ProgressInstruments =
  | ({ readonly synchronous: true } & ProgressGauges<GaugeRecorder>)
  | ({ readonly synchronous: false } & ProgressGauges<ObservableGauge>);

/**
 * Creates the gauges of `spec` on `meter`, as the run gauges are (run-instruments.ts): synchronous ones where the
 * Meter has `createGauge` (API 1.9.0 and later), so that a series starts at its first record rather than at its
 * first collection, where its first point would start at its end; observable ones on older APIs.
 */
export function createProgressInstruments(meter: Meter, spec: ProgressSpec): ProgressInstruments {
  const gauge = synchronousGaugesOf(meter);
  if (gauge === undefined)
    return {
      synchronous: false,
      active: meter.createObservableGauge(spec.active.name, spec.active),
      progress: meter.createObservableGauge(spec.progress.name, spec.progress),
      remainingTime: meter.createObservableGauge(spec.remainingTime.name, spec.remainingTime),
      lastProgressTime: meter.createObservableGauge(spec.lastProgressTime.name, spec.lastProgressTime),
      phase: meter.createObservableGauge(spec.phase.name, spec.phase),
    };
  return {
    synchronous: true,
    active: gauge(spec.active),
    progress: gauge(spec.progress),
    remainingTime: gauge(spec.remainingTime),
    lastProgressTime: gauge(spec.lastProgressTime),
    phase: gauge(spec.phase),
  };
}
