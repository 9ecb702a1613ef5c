// @ts-nocheck
import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  InMemoryMetricExporter,
  MeterProvider,
  type MetricProducer,
  PeriodicExportingMetricReader,
  type ResourceMetrics,
  type ViewOptions,
} from '@opentelemetry/sdk-metrics';
import { runKey, seriesKey } from './series-key.js';

/** A real MeterProvider with one reader per temporality asked for, each exporting to memory. */
export interface Harness {
  readonly provider: MeterProvider;
  /** Collects through the reader at `index` and returns what it exported. */
  collect(index?: number): Promise<ResourceMetrics>;
  shutdown(): Promise<void>;
}

/**
 * `views` configure the provider as the SDK's own views do (an instrument's aggregation, attributes);
 * `producers[i]` are the reader i's metricProducers (the histogram producers of backupstats).
 */
export function createHarness(
  temporalities: readonly AggregationTemporality[] = [AggregationTemporality.CUMULATIVE],
  views: ViewOptions[] = [],
  producers: readonly (readonly MetricProducer[])[] = [],
): Harness {
  const pairs = temporalities.map((temporality, i) => {
    const exporter = new InMemoryMetricExporter(temporality);
    // The interval is far beyond any test: every export here is an explicit forceFlush.
    const reader = new PeriodicExportingMetricReader({
      exporter,
      exportIntervalMillis: 2 ** 30,
      metricProducers: [...(producers[i] ?? [])],
    });
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

/** One exported data point: metric name, unit, attributes and value (a number, or an object for a histogram). */
export interface Point<Value = number> {
  readonly name: string;
  readonly unit: string;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly value: Value;
}

/** Every data point of an export, of every metric, in the order the SDK exported them. */
function allPoints(metrics: ResourceMetrics | undefined): Point<unknown>[] {
  return (metrics?.scopeMetrics ?? []).flatMap((scope) =>
    scope.metrics.flatMap((metric) =>
      (metric.dataPoints as DataPoint<unknown>[]).map((dataPoint) => ({
        name: metric.descriptor.name,
        unit: metric.descriptor.unit,
        attributes: dataPoint.attributes,
        value: dataPoint.value,
      })),
    ),
  );
}

const isNumber = (p: Point<unknown>): p is Point => typeof p.value === 'number';

/** Flattens an export into its sum and gauge data points. */
export function points(metrics: ResourceMetrics): Point[] {
  return allPoints(metrics).filter(isNumber);
}

/** Series key → value, from one export. */
export function valuesByKey(metrics: ResourceMetrics): Map<string, number> {
  const map = new Map<string, number>();
  for (const p of points(metrics)) map.set(seriesKey(p.name, p.attributes), p.value);
  return map;
}

/** {@link runKey} → value of every sum and gauge point of an export (none if there is no export). */
export function numbers(exported: ResourceMetrics | undefined): Map<string, number> {
  return new Map(
    allPoints(exported)
      .filter(isNumber)
      .map((p) => [runKey(p.name, p.attributes), p.value]),
  );
}

/** {@link runKey} → value of every histogram point of an export (none if there is no export). */
export function histograms(exported: ResourceMetrics | undefined): Map<string, Histogram> {
  return new Map(
    allPoints(exported)
      .filter((p) => typeof p.value === 'object')
      .map((p) => [runKey(p.name, p.attributes), p.value as Histogram]),
  );
}
