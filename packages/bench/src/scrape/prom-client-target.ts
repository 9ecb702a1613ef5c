import { createServer } from 'node:http';
import { Counter, Histogram, Registry } from 'prom-client';

/** prom-client serving series like the job's, on 127.0.0.1. */
export interface PromClientTarget {
  readonly registry: Registry;
  readonly url: string;
  stop(): Promise<void>;
}

/** What the job recorded on each series, to record the same into prom-client. */
export interface SeriesRecords {
  readonly labelsOf: (i: number) => Record<'component' | 'implementation' | 'operation', string>;
  readonly durationsMs: readonly number[];
  readonly bytes: number;
}

/**
 * The job's series in prom-client: the same three counters per series and, with `histograms`, the latency histogram
 * with the same boundaries, served over HTTP as prom-client's users serve it (`await registry.metrics()`).
 */
export async function startPromClientTarget(
  series: number,
  histograms: boolean,
  boundaries: readonly number[],
  records: SeriesRecords,
): Promise<PromClientTarget> {
  const registry = new Registry();
  const labelNames = ['component', 'implementation', 'operation'] as const;
  const operations = new Counter({
    name: 'backup_operations_total',
    help: 'Operations',
    labelNames,
    registers: [registry],
  });
  const bytes = new Counter({ name: 'backup_bytes_total', help: 'Bytes', labelNames, registers: [registry] });
  const time = new Counter({ name: 'backup_time_total', help: 'Time, s', labelNames, registers: [registry] });
  const duration = histograms
    ? new Histogram({
        name: 'backup_duration_seconds',
        help: 'Durations, s',
        labelNames,
        buckets: [...boundaries],
        registers: [registry],
      })
    : undefined;
  for (let i = 0; i < series; i++) {
    const labels = records.labelsOf(i);
    let millis = 0;
    for (const ms of records.durationsMs) {
      duration?.observe(labels, ms / 1000);
      millis += ms;
    }
    operations.inc(labels, records.durationsMs.length);
    bytes.inc(labels, records.bytes * records.durationsMs.length);
    time.inc(labels, millis / 1000);
  }
  const server = createServer((_request, response) => {
    registry.metrics().then(
      (text) => {
        response.setHeader('content-type', registry.contentType);
        response.end(text);
      },
      (error: unknown) => {
        response.statusCode = 500;
        response.end(String(error));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    registry,
    url: `http://127.0.0.1:${port}/metrics`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
