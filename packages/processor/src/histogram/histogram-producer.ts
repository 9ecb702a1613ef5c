import { type Attributes, type HrTime, ValueType } from '@opentelemetry/api';
import { METER_NAME, VERSION } from '../api/version.js';
import { optionsOf } from '../base/arguments.js';
import { ERROR_CODES, listChoices, notAccepted, showValue } from '../base/errors.js';
import { DeltaState } from './delta-state.js';
import { explicitPoint, exponentialPoint, type HistogramNumbers, hrTimeOf } from './histogram-points.js';
import type { LocalHistogram } from './local-histogram.js';
import {
  CUMULATIVE,
  DELTA,
  EXPONENTIAL_HISTOGRAM,
  type ExplicitHistogramValue,
  type ExponentialHistogramValue,
  HISTOGRAM,
  type HistogramCollection,
  type HistogramDataPoint,
  type HistogramMetricData,
} from './metric-data.js';

/** How a producer hands the histograms over: explicit buckets (Prometheus, OTLP's default), or base-2 exponential. */
export type HistogramAggregation = 'explicit' | 'exponential';

/** The aggregations {@link createHistogramProducer} accepts. */
export const HISTOGRAM_AGGREGATIONS: readonly HistogramAggregation[] = Object.freeze(['explicit', 'exponential']);

/**
 * What a producer's points cover: `cumulative` (default), everything since the series started; `delta`, what was
 * recorded since the previous collection. Give a producer the temporality of the reader it feeds.
 */
export type HistogramTemporality = 'cumulative' | 'delta';

/** The temporalities {@link createHistogramProducer} accepts. */
export const HISTOGRAM_TEMPORALITIES: readonly HistogramTemporality[] = Object.freeze(['cumulative', 'delta']);

/** Options of {@link createHistogramProducer}. */
export interface HistogramProducerOptions {
  /** `explicit` (default): explicit buckets, every `le` count exact. `exponential`: base-2 buckets at scale 3 (OTLP). */
  readonly aggregation?: HistogramAggregation | undefined;
  /**
   * `cumulative` (default) or `delta`: the temporality of the reader it feeds (a producer cannot see the reader's
   * choice, so this option passes it on). A delta producer remembers what it handed over: it feeds one reader only.
   */
  readonly temporality?: HistogramTemporality | undefined;
}

/**
 * An OpenTelemetry `MetricProducer` that hands a MetricReader the latency histograms of the stats that were given
 * it (`createBackupStats({ histogramProducers: [producer] })`), aggregated in process: pass it in the reader's
 * `metricProducers`, with the reader's temporality in `temporality`.
 */
export interface HistogramProducer {
  /** The buckets it hands over: `explicit` or `exponential`. */
  readonly aggregation: HistogramAggregation;
  /** `cumulative` or `delta`: the temporality of the reader it feeds. */
  readonly temporality: HistogramTemporality;
  /** Called by the reader at each collection. */
  collect(options?: { timeoutMillis?: number }): Promise<HistogramCollection>;
}

/** What a producer needs of one family of one stats instance. */
export interface HistogramFamily {
  /** The histogram instrument: name, unit (`s`) and description. */
  readonly name: string;
  readonly description: string;
  /** Calls `each` with every series that has a histogram. */
  forEachHistogram(each: (attributes: Attributes, histogram: LocalHistogram) => void): void;
}

/** The stats instances attached to each producer; internal, so that only the core attaches. */
const sources = new WeakMap<HistogramProducer, Set<readonly HistogramFamily[]>>();

/** Makes `producer` hand over the histograms of `families` (one stats instance) from its next collection on. */
export function attachHistograms(producer: HistogramProducer, families: readonly HistogramFamily[]): void {
  const attached = sources.get(producer);
  if (attached === undefined) {
    throw notAccepted(
      ERROR_CODES.INVALID_OPTION,
      'option histogramProducers',
      'a value that createHistogramProducer() did not make',
      'producers made by createHistogramProducer()',
    );
  }
  attached.add(families);
}

/**
 * Creates a MetricProducer for the latency histograms of backupstats, to pass in a MetricReader's `metricProducers`
 * and in `createBackupStats({ histogramProducers })` (`startBackupStats` does both for the readers it builds).
 *
 * @throws TypeError when `options.aggregation` is not `explicit` or `exponential`, or `options.temporality` not
 *   `cumulative` or `delta`.
 */
export function createHistogramProducer(options?: HistogramProducerOptions): HistogramProducer {
  const given = optionsOf('createHistogramProducer', options, "{ aggregation: 'exponential' }", [
    'aggregation',
    'temporality',
  ]);
  const aggregation = choice('aggregation', given.aggregation ?? 'explicit', HISTOGRAM_AGGREGATIONS);
  const temporality = choice('temporality', given.temporality ?? 'cumulative', HISTOGRAM_TEMPORALITIES);
  const attached = new Set<readonly HistogramFamily[]>();
  const delta = temporality === 'delta' ? new DeltaState() : undefined;
  const built = new WeakMap<LocalHistogram, BuiltPoint>();
  const producer: HistogramProducer = {
    aggregation,
    temporality,
    collect: () => Promise.resolve(collect(aggregation, delta, built, attached)),
  };
  sources.set(producer, attached);
  return producer;
}

/** `value` when it is one of `choices`; else the TypeError naming the option. */
function choice<T extends string>(option: string, value: T, choices: readonly T[]): T {
  if (choices.includes(value)) return value;
  throw notAccepted(
    ERROR_CODES.INVALID_OPTION,
    `createHistogramProducer option ${option}`,
    showValue(value),
    listChoices(choices),
  );
}

/**
 * What a cumulative point of a series was built from and handed over: a series whose count and start are still the
 * same has had no record since (every record and every fold from a worker adds a weight above 0), so its value is
 * handed over again rather than rebuilt; at a scrape most series of a large job have not changed.
 */
type AnyPoint = HistogramDataPoint<ExplicitHistogramValue | ExponentialHistogramValue>;

interface BuiltPoint {
  readonly count: number;
  readonly startedAt: number;
  readonly attributes: Attributes;
  readonly startTime: HrTime;
  readonly value: ExplicitHistogramValue | ExponentialHistogramValue;
}

/**
 * Every attached family's histograms, built in one synchronous pass, so no record lands half-way; series of one
 * instrument name (two stats instances on one producer) go into one metric, as one instrument. Cumulative points
 * (no `delta` state) start at the series' start, their values reused while the series is unchanged (`built`); delta
 * ones hold what the series gained since the previous collection.
 */
function collect(
  aggregation: HistogramAggregation,
  delta: DeltaState | undefined,
  built: WeakMap<LocalHistogram, BuiltPoint>,
  attached: ReadonlySet<readonly HistogramFamily[]>,
): HistogramCollection {
  const now = Date.now();
  const endTime = hrTimeOf(now);
  const aggregationTemporality = delta === undefined ? CUMULATIVE : DELTA;
  const byName = new Map<string, HistogramMetricData>();
  const pointOf = (attributes: Attributes, numbers: HistogramNumbers, startTime: HrTime): AnyPoint =>
    aggregation === 'explicit'
      ? explicitPoint(attributes, numbers, startTime, endTime)
      : exponentialPoint(attributes, numbers, startTime, endTime);
  const deltaPoint = (attributes: Attributes, histogram: LocalHistogram, state: DeltaState): AnyPoint | undefined => {
    const interval = state.take(histogram);
    return interval === undefined ? undefined : pointOf(attributes, interval, hrTimeOf(interval.startMillis));
  };
  const cumulativePoint = (attributes: Attributes, histogram: LocalHistogram): AnyPoint => {
    const last = built.get(histogram);
    if (
      last !== undefined &&
      last.count === histogram.count &&
      last.startedAt === histogram.startedAt &&
      last.attributes === attributes
    ) {
      return { startTime: last.startTime, endTime, attributes, value: last.value };
    }
    const startTime = hrTimeOf(histogram.startedAt);
    const point = pointOf(attributes, histogram, startTime);
    built.set(histogram, {
      count: histogram.count,
      startedAt: histogram.startedAt,
      attributes,
      startTime,
      value: point.value,
    });
    return point;
  };
  for (const families of attached) {
    for (const family of families) {
      family.forEachHistogram((attributes, histogram) => {
        if (histogram.count === 0) return;
        const point =
          delta === undefined ? cumulativePoint(attributes, histogram) : deltaPoint(attributes, histogram, delta);
        if (point === undefined) return;
        let metric = byName.get(family.name);
        if (metric === undefined) {
          const descriptor = {
            name: family.name,
            description: family.description,
            unit: 's',
            valueType: ValueType.DOUBLE,
          };
          metric =
            aggregation === 'explicit'
              ? { descriptor, aggregationTemporality, dataPointType: HISTOGRAM, dataPoints: [] }
              : {
                  descriptor,
                  aggregationTemporality,
                  dataPointType: EXPONENTIAL_HISTOGRAM,
                  dataPoints: [],
                };
          byName.set(family.name, metric);
        }
        (metric.dataPoints as AnyPoint[]).push(point);
      });
    }
  }
  delta?.collected(now);
  const metrics = [...byName.values()];
  return {
    resourceMetrics: {
      resource: EMPTY_RESOURCE,
      scopeMetrics: metrics.length === 0 ? [] : [{ scope: { name: METER_NAME, version: VERSION }, metrics }],
    },
    errors: [],
  };
}

/** A MetricReader keeps its provider's resource and ignores a producer's: this one stands in. */
const EMPTY_RESOURCE = Object.freeze({ attributes: {} });
