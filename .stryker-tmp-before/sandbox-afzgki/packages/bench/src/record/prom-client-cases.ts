// @ts-nocheck
import { Counter, Registry } from 'prom-client';

/** The labels of a record, as the record-cost benchmark gives them. */
interface Labels {
  readonly component: string;
  readonly implementation: string;
  readonly operation: string;
}

/** A case of the record-cost benchmark: `fn(n)` makes `n` records. */
interface RecordCase {
  readonly name: string;
  readonly records: number;
  readonly fn: (n: number) => void;
}

const LABEL_NAMES = ['component', 'implementation', 'operation'] as const;

/**
 * prom-client, the other metrics library Node users reach for, recording what one `timedIncrementBytes` records
 * (three labelled counters): looking the child up by its labels on every record, and with pre-bound children. The
 * inputs cycle through `bytes` and `durations`, whose length is a power of two.
 */
export function promClientCases(labels: Labels, bytes: number[], durations: number[], records: number): RecordCase[] {
  const mask = bytes.length - 1;
  const registry = new Registry();
  const promCounter = (name: string): Counter<(typeof LABEL_NAMES)[number]> =>
    new Counter({ name, help: name, labelNames: LABEL_NAMES, registers: [registry] });
  const promOps = promCounter('backup_operations_total');
  const promBytes = promCounter('backup_bytes_total');
  const promSeconds = promCounter('backup_seconds_total');
  const { component, implementation, operation } = labels;
  const boundOps = promOps.labels(component, implementation, operation);
  const boundBytes = promBytes.labels(component, implementation, operation);
  const boundSeconds = promSeconds.labels(component, implementation, operation);
  return [
    {
      name: 'prom-client: 3 × counter.labels(…).inc',
      records,
      fn: (n) => {
        for (let i = 0; i < n; i++) {
          promOps.labels(component, implementation, operation).inc();
          promBytes.labels(component, implementation, operation).inc(bytes[i & mask] as number);
          promSeconds.labels(component, implementation, operation).inc((durations[i & mask] as number) / 1000);
        }
      },
    },
    {
      name: 'prom-client: 3 × pre-bound child .inc',
      records,
      fn: (n) => {
        for (let i = 0; i < n; i++) {
          boundOps.inc();
          boundBytes.inc(bytes[i & mask] as number);
          boundSeconds.inc((durations[i & mask] as number) / 1000);
        }
      },
    },
  ];
}
