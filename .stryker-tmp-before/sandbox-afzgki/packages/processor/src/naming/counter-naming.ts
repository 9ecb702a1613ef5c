// @ts-nocheck
import { ValueType } from '@opentelemetry/api';
import type { CounterSpec, Family, Naming } from './naming-types.js';
import { type RunSpec, runSpec } from './run-naming.js';

/** What the latency histogram of one family is called (its unit is always `s`). */
export interface DurationSpec {
  readonly name: string;
  readonly description: string;
}

/** The three counters of one family plus the conversion from milliseconds to the time counter's unit, and its run instruments. */
export interface FamilySpec {
  readonly operations: CounterSpec;
  readonly bytes: CounterSpec;
  readonly time: CounterSpec;
  /** The latency histogram, handed to readers by a histogram producer. */
  readonly duration: DurationSpec;
  readonly fromMillis: (durationMillis: number) => number;
  readonly run: RunSpec;
}

const toSeconds = (durationMillis: number): number => durationMillis / 1000;
const toNanoseconds = (durationMillis: number): number => Math.round(durationMillis * 1e6);

/** Builds the counter names of one family under a naming preset and an optional name prefix. */
export function familySpec(naming: Naming, family: Family, prefix: string): FamilySpec {
  if (naming === 'vitess') {
    return {
      operations: {
        name: `${prefix}${family}_count`,
        unit: '1',
        description: `${family} operations`,
        valueType: ValueType.INT,
      },
      bytes: {
        name: `${prefix}${family}_bytes`,
        unit: 'By',
        description: `${family} bytes`,
        valueType: ValueType.INT,
      },
      time: {
        name: `${prefix}${family}_duration_nanoseconds`,
        unit: 'ns',
        description: `${family} duration in nanoseconds`,
        valueType: ValueType.INT,
      },
      duration: {
        name: `${prefix}${family}_operation_duration_seconds`,
        description: `${family} operation duration in seconds`,
      },
      fromMillis: toNanoseconds,
      run: runSpec(naming, family, prefix),
    };
  }
  return {
    operations: {
      name: `${prefix}${family}.operations`,
      unit: '{operation}',
      description: `Number of ${family} operations recorded.`,
      valueType: ValueType.INT,
    },
    bytes: {
      name: `${prefix}${family}.bytes`,
      unit: 'By',
      description: `Bytes moved by ${family} operations.`,
      valueType: ValueType.INT,
    },
    time: {
      name: `${prefix}${family}.time`,
      unit: 's',
      description: `Time spent in ${family} operations.`,
      valueType: ValueType.DOUBLE,
    },
    duration: { name: `${prefix}${family}.operation.duration`, description: `Duration of ${family} operations.` },
    fromMillis: toSeconds,
    run: runSpec(naming, family, prefix),
  };
}

/** OpenTelemetry's instrument name syntax. */
export const INSTRUMENT_NAME = /^[a-zA-Z][\w./-]{0,254}$/;
