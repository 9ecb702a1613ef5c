import { ValueType } from '@opentelemetry/api';
import type { CounterSpec, Family, Naming } from './naming-types.js';

/**
 * What the gauges of runs in progress are called: exported for a handle once a run with an expected size (or a
 * phase) started on it, and kept at their last values after it ended, as OpenTelemetry keeps a gauge's series.
 */
export interface ProgressSpec {
  /** Gauge: runs in progress on the handle that were given an expected size. */
  readonly active: CounterSpec;
  /** Gauge: bytes done / bytes expected, from 0 (may pass 1 when the estimate was low). */
  readonly progress: CounterSpec;
  /** Gauge: seconds left at the throughput of the recent window; +Inf when nothing moved in it. */
  readonly remainingTime: CounterSpec;
  /** Gauge: when the run last moved (its start until it does), Unix seconds. */
  readonly lastProgressTime: CounterSpec;
  /** Gauge: 1 for the run's current phase, 0 for the earlier ones, with the attribute {@link phaseKey}. */
  readonly phase: CounterSpec;
  readonly phaseKey: string;
}

/** Builds the names of the progress gauges of one family under a naming preset and an optional name prefix. */
export function progressSpec(naming: Naming, family: Family, prefix: string): ProgressSpec {
  const name = `${prefix}${family}`;
  if (naming === 'vitess') {
    return {
      active: {
        name: `${name}_runs_in_progress`,
        unit: '1',
        description: `${family} runs in progress that were given an expected size`,
        valueType: ValueType.INT,
      },
      progress: {
        name: `${name}_run_progress_ratio`,
        unit: '1',
        description: `bytes done over bytes expected of the ${family} run in progress`,
        valueType: ValueType.DOUBLE,
      },
      remainingTime: {
        name: `${name}_run_remaining_seconds`,
        unit: 's',
        description: `seconds left of the ${family} run in progress at its throughput of the last minute`,
        valueType: ValueType.DOUBLE,
      },
      lastProgressTime: {
        name: `${name}_last_progress_timestamp_seconds`,
        unit: 's',
        description: `when the ${family} run in progress last moved, Unix seconds`,
        valueType: ValueType.DOUBLE,
      },
      phase: {
        name: `${name}_phase`,
        unit: '1',
        description: `the current phase of the ${family} run (1), earlier phases (0)`,
        valueType: ValueType.INT,
      },
      phaseKey: 'phase',
    };
  }
  return {
    active: {
      name: `${name}.active_runs`,
      unit: '{run}',
      description: `Number of ${family} runs in progress that were given an expected size.`,
      valueType: ValueType.INT,
    },
    progress: {
      name: `${name}.run.progress`,
      unit: '1',
      description: `Bytes done over bytes expected of the ${family} run in progress.`,
      valueType: ValueType.DOUBLE,
    },
    remainingTime: {
      name: `${name}.run.remaining_time`,
      unit: 's',
      description: `Time left of the ${family} run in progress at its throughput of the last minute.`,
      valueType: ValueType.DOUBLE,
    },
    lastProgressTime: {
      name: `${name}.last_progress.timestamp`,
      unit: 's',
      description: `When the ${family} run in progress last moved, in seconds since the Unix epoch.`,
      valueType: ValueType.DOUBLE,
    },
    phase: {
      name: `${name}.run.phase`,
      unit: '1',
      description: `The current phase of the ${family} run (1) and its earlier phases (0).`,
      valueType: ValueType.INT,
    },
    phaseKey: 'phase',
  };
}
