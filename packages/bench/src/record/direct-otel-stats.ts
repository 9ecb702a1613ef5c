import { type Attributes, type Counter, type MeterProvider, ValueType } from '@opentelemetry/api';
import type { ScopeLabels, Stats } from 'backupstats';
import { noopStats } from 'backupstats/testing';

/** The three OpenTelemetry counters a naive instrumentation would add to on every record. */
interface Counters {
  readonly operations: Counter;
  readonly bytes: Counter;
  readonly time: Counter;
}

/**
 * The baseline every benchmark compares against: the same measurement as `timedIncrementBytes`, written
 * straight into OpenTelemetry counters (count, bytes, seconds) with the same three attributes, on every call.
 * The attribute object is built once per scope, as a careful hand-written instrumentation would; what remains
 * is the SDK's own per-call cost.
 */
export function createDirectOtelStats(provider: MeterProvider): Stats {
  const meter = provider.getMeter('bench-direct-otel');
  const counters: Counters = {
    operations: meter.createCounter('backup.operations', { unit: '{operation}', valueType: ValueType.INT }),
    bytes: meter.createCounter('backup.bytes', { unit: 'By', valueType: ValueType.INT }),
    time: meter.createCounter('backup.time', { unit: 's', valueType: ValueType.DOUBLE }),
  };
  return directHandle(counters, { component: '-', implementation: '-', operation: '-' });
}

function directHandle(counters: Counters, labels: Required<Record<keyof ScopeLabels, string>>): Stats {
  const attributes: Attributes = Object.freeze({ ...labels });
  const { operations, bytes, time } = counters;
  return {
    scope: (given) =>
      directHandle(counters, {
        component: pick(labels.component, given.component),
        implementation: pick(labels.implementation, given.implementation),
        operation: pick(labels.operation, given.operation),
      }),
    timedIncrement(durationMillis) {
      operations.add(1, attributes);
      time.add(durationMillis / 1000, attributes);
    },
    timedIncrementBytes(byteCount, durationMillis) {
      operations.add(1, attributes);
      bytes.add(byteCount, attributes);
      time.add(durationMillis / 1000, attributes);
    },
    // The benchmarks measure records, not runs.
    startRun: () => noopStats.startRun(),
  };
}

function pick(current: string, given: string | undefined): string {
  return current !== '-' || given === undefined || given === '' ? current : given;
}
