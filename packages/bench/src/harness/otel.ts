import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  MetricReader,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';

/** A real SDK MeterProvider with one reader, as an application would have, exporting to memory. */
export interface OtelSetup {
  readonly provider: MeterProvider;
  /** Collects and exports once, as the reader's interval would. */
  collect(): Promise<void>;
  /** Collects and returns the exported value of every data point of the metric `name`, summed. */
  total(name: string): Promise<number>;
  /** The same for several metrics from one collection, in the order of `names`. */
  totals(names: readonly string[]): Promise<number[]>;
  shutdown(): Promise<void>;
}

/**
 * Creates the provider. Without a reader the SDK registers no storage and `Counter.add` does almost nothing,
 * so a benchmark without one would flatter direct OpenTelemetry.
 */
export function createOtelSetup(): OtelSetup {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // The interval is far beyond any benchmark; collections happen when a benchmark asks for them.
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 2 ** 30 });
  const provider = new MeterProvider({ readers: [reader] });
  return {
    provider,
    async collect() {
      await reader.forceFlush();
      // Keep only the totals the SDK holds, not every export, so memory measurements see the SDK's own state.
      exporter.reset();
    },
    async total(name) {
      return (await this.totals([name]))[0] as number;
    },
    async totals(names) {
      await reader.forceFlush();
      const sums = names.map(() => 0);
      for (const scope of exporter.getMetrics().at(-1)?.scopeMetrics ?? []) {
        for (const metric of scope.metrics) {
          const at = names.indexOf(metric.descriptor.name);
          if (at < 0) continue;
          for (const point of metric.dataPoints) {
            if (typeof point.value === 'number') sums[at] = (sums[at] as number) + point.value;
          }
        }
      }
      exporter.reset();
      return sums;
    },
    shutdown: () => provider.shutdown(),
  };
}

/** A reader that only collects: a benchmark hands what it collects to the exporters itself. */
export class CollectingReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** One export of `metrics` by `exporter`, as a promise that rejects with the export's error. */
export function exportOnce(exporter: PushMetricExporter, metrics: ResourceMetrics): Promise<void> {
  return new Promise((resolve, reject) => {
    exporter.export(metrics, (result) => (result.code === 0 ? resolve() : reject(result.error)));
  });
}
