import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type ResourceMetrics,
  type ViewOptions,
} from '@opentelemetry/sdk-metrics';
import { seriesKey } from './series-key.js';

/** A real MeterProvider with one reader per temporality asked for, each exporting to memory. */
export interface Harness {
  readonly provider: MeterProvider;
  /** Collects through the reader at `index` and returns what it exported. */
  collect(index?: number): Promise<ResourceMetrics>;
  shutdown(): Promise<void>;
}

/** `views` configure the provider as the SDK's own views do (an instrument's aggregation, attributes). */
export function createHarness(
  temporalities: readonly AggregationTemporality[] = [AggregationTemporality.CUMULATIVE],
  views: ViewOptions[] = [],
): Harness {
  const pairs = temporalities.map((temporality) => {
    const exporter = new InMemoryMetricExporter(temporality);
    // The interval is far beyond any test: every export here is an explicit forceFlush.
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 2 ** 30 });
    return { exporter, reader };
  });
  const provider = new MeterProvider({ readers: pairs.map((p) => p.reader), views });
  return {
    provider,
    async collect(index = 0) {
      const pair = pairs[index];
      if (pair === undefined) throw new Error(`no reader ${index}`);
      pair.exporter.reset();
      await pair.reader.forceFlush();
      const exported = pair.exporter.getMetrics();
      const last = exported[exported.length - 1];
      if (last === undefined) throw new Error('the reader exported nothing');
      return last;
    },
    shutdown: () => provider.shutdown(),
  };
}

/** One exported data point: metric name, attributes and value. */
export interface Point {
  readonly name: string;
  readonly unit: string;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly value: number;
}

/** Flattens an export into its sum and gauge data points. */
export function points(metrics: ResourceMetrics): Point[] {
  const out: Point[] = [];
  for (const scope of metrics.scopeMetrics) {
    for (const metric of scope.metrics) {
      for (const dataPoint of metric.dataPoints) {
        if (typeof dataPoint.value !== 'number') continue;
        out.push({
          name: metric.descriptor.name,
          unit: metric.descriptor.unit,
          attributes: dataPoint.attributes,
          value: dataPoint.value,
        });
      }
    }
  }
  return out;
}

/** Series key → value, from one export. */
export function valuesByKey(metrics: ResourceMetrics): Map<string, number> {
  const map = new Map<string, number>();
  for (const p of points(metrics)) map.set(seriesKey(p.name, p.attributes), p.value);
  return map;
}
