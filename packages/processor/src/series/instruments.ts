import type { Counter, Meter } from '@opentelemetry/api';
import type { FamilySpec } from '../naming/counter-naming.js';

/** The three counters of one family, and the conversion from milliseconds to the time counter's unit. */
export interface Instruments {
  readonly operations: Counter;
  readonly bytes: Counter;
  readonly time: Counter;
  readonly fromMillis: (durationMillis: number) => number;
}

/** Creates the counters of `spec` on `meter`. */
export function createInstruments(meter: Meter, spec: FamilySpec): Instruments {
  const { operations, bytes, time, fromMillis } = spec;
  return {
    operations: meter.createCounter(operations.name, operations),
    bytes: meter.createCounter(bytes.name, bytes),
    time: meter.createCounter(time.name, time),
    fromMillis,
  };
}
