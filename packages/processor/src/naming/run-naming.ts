import { ValueType } from '@opentelemetry/api';
import type { CounterSpec, Family, Naming } from './naming-types.js';
import { type ProgressSpec, progressSpec } from './progress-naming.js';

/**
 * The bucket boundaries of the run duration histograms, in seconds: from a second to a day, about two buckets per
 * doubling up to an hour, since a backup takes seconds on a laptop and hours on a database server.
 */
export const RUN_DURATION_BOUNDARIES: readonly number[] = Object.freeze([
  1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200, 14400, 28800, 86400,
]);

/** A histogram's name and options, with its bucket boundaries as advice to the SDK. */
export interface HistogramSpec extends CounterSpec {
  readonly advice: { readonly explicitBucketBoundaries: number[] };
}

/** What the run instruments of one family are called, and the attribute that carries a failure's reason. */
export interface RunSpec {
  /** Counter of ended runs, by outcome (and reason for failures and partial ends). */
  readonly runs: CounterSpec;
  /** Counter of the warnings runs gave, by reason, whatever their outcome. */
  readonly warnings: CounterSpec;
  /** Histogram of run durations in seconds, by outcome. */
  readonly duration: HistogramSpec;
  /** Gauge: when the last successful run ended, Unix seconds. */
  readonly lastSuccessTime: CounterSpec;
  /** Gauge: when the last failed run ended, Unix seconds. */
  readonly lastFailureTime: CounterSpec;
  /** Gauge: when the last run that ended partial ended, Unix seconds. */
  readonly lastPartialTime: CounterSpec;
  /** Gauge: the bytes of the last successful run (what it read: backed up, restored, verified, pruned). */
  readonly lastSuccessBytes: CounterSpec;
  /** Gauge: the bytes the last successful run stored (after compression and deduplication). */
  readonly lastSuccessStoredBytes: CounterSpec;
  /** `error.type` (OpenTelemetry's attribute for the class of error an operation ended with) or `reason` (vitess). */
  readonly reasonKey: string;
  /** The gauges of runs in progress (naming/progress-naming.ts). */
  readonly progress: ProgressSpec;
}

/** Builds the run instrument names of one family under a naming preset and an optional name prefix. */
export function runSpec(naming: Naming, family: Family, prefix: string): RunSpec {
  // A copy per spec: the SDK keeps the array it is given.
  const advice = { explicitBucketBoundaries: [...RUN_DURATION_BOUNDARIES] };
  if (naming === 'vitess') {
    const name = `${prefix}${family}`;
    return {
      runs: {
        name: `${name}_run_count`,
        unit: '1',
        description: `${family} runs by outcome`,
        valueType: ValueType.INT,
      },
      warnings: {
        name: `${name}_run_warning_count`,
        unit: '1',
        description: `warnings of ${family} runs by reason`,
        valueType: ValueType.INT,
      },
      duration: {
        name: `${name}_run_duration_seconds`,
        unit: 's',
        description: `${family} run duration in seconds`,
        valueType: ValueType.DOUBLE,
        advice,
      },
      lastSuccessTime: {
        name: `${name}_last_success_timestamp_seconds`,
        unit: 's',
        description: `end of the last successful ${family} run, Unix seconds`,
        valueType: ValueType.DOUBLE,
      },
      lastFailureTime: {
        name: `${name}_last_failure_timestamp_seconds`,
        unit: 's',
        description: `end of the last failed ${family} run, Unix seconds`,
        valueType: ValueType.DOUBLE,
      },
      lastPartialTime: {
        name: `${name}_last_partial_timestamp_seconds`,
        unit: 's',
        description: `end of the last partial ${family} run, Unix seconds`,
        valueType: ValueType.DOUBLE,
      },
      lastSuccessBytes: {
        name: `${name}_last_success_bytes`,
        unit: 'By',
        description: `bytes of the last successful ${family} run`,
        valueType: ValueType.INT,
      },
      lastSuccessStoredBytes: {
        name: `${name}_last_success_stored_bytes`,
        unit: 'By',
        description: `bytes stored by the last successful ${family} run`,
        valueType: ValueType.INT,
      },
      reasonKey: 'reason',
      progress: progressSpec(naming, family, prefix),
    };
  }
  const name = `${prefix}${family}`;
  return {
    runs: {
      name: `${name}.runs`,
      unit: '{run}',
      description: `Number of ${family} runs ended, by outcome.`,
      valueType: ValueType.INT,
    },
    warnings: {
      name: `${name}.run.warnings`,
      unit: '{warning}',
      description: `Number of warnings of ${family} runs, by reason.`,
      valueType: ValueType.INT,
    },
    duration: {
      name: `${name}.run.duration`,
      unit: 's',
      description: `Duration of ${family} runs.`,
      valueType: ValueType.DOUBLE,
      advice,
    },
    lastSuccessTime: {
      name: `${name}.last_success.timestamp`,
      unit: 's',
      description: `When the last successful ${family} run ended, in seconds since the Unix epoch.`,
      valueType: ValueType.DOUBLE,
    },
    lastFailureTime: {
      name: `${name}.last_failure.timestamp`,
      unit: 's',
      description: `When the last failed ${family} run ended, in seconds since the Unix epoch.`,
      valueType: ValueType.DOUBLE,
    },
    lastPartialTime: {
      name: `${name}.last_partial.timestamp`,
      unit: 's',
      description: `When the last ${family} run that ended partial ended, in seconds since the Unix epoch.`,
      valueType: ValueType.DOUBLE,
    },
    lastSuccessBytes: {
      name: `${name}.last_success.bytes`,
      unit: 'By',
      description: `Bytes read by the last successful ${family} run.`,
      valueType: ValueType.INT,
    },
    lastSuccessStoredBytes: {
      name: `${name}.last_success.stored_bytes`,
      unit: 'By',
      description: `Bytes stored by the last successful ${family} run.`,
      valueType: ValueType.INT,
    },
    reasonKey: 'error.type',
    progress: progressSpec(naming, family, prefix),
  };
}

/** Every instrument name of `spec`, for the name checks at construction. */
export function runInstrumentNames(spec: RunSpec): string[] {
  const { active, progress, remainingTime, lastProgressTime, phase } = spec.progress;
  return [
    spec.runs,
    spec.warnings,
    spec.duration,
    spec.lastSuccessTime,
    spec.lastFailureTime,
    spec.lastPartialTime,
    spec.lastSuccessBytes,
    spec.lastSuccessStoredBytes,
    active,
    progress,
    remainingTime,
    lastProgressTime,
    phase,
  ].map((instrument) => instrument.name);
}
