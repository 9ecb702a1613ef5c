import type { Meter, ObservableGauge } from '@opentelemetry/api';
import type { ProgressSpec } from '../naming/progress-naming.js';

/** The gauges of the runs in progress of one family. */
export interface ProgressInstruments {
  readonly active: ObservableGauge;
  readonly progress: ObservableGauge;
  readonly remainingTime: ObservableGauge;
  readonly lastProgressTime: ObservableGauge;
  readonly phase: ObservableGauge;
}

/**
 * Creates the gauges of `spec` on `meter`: observable ones (API 1.3.0 and later), read at each collection. The SDK
 * starts an observable series at its first collection, so each one's first point starts at its end.
 */
export function createProgressInstruments(meter: Meter, spec: ProgressSpec): ProgressInstruments {
  return {
    active: meter.createObservableGauge(spec.active.name, spec.active),
    progress: meter.createObservableGauge(spec.progress.name, spec.progress),
    remainingTime: meter.createObservableGauge(spec.remainingTime.name, spec.remainingTime),
    lastProgressTime: meter.createObservableGauge(spec.lastProgressTime.name, spec.lastProgressTime),
    phase: meter.createObservableGauge(spec.phase.name, spec.phase),
  };
}
