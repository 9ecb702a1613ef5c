import type { Family } from '../naming/naming-types.js';
import type { ReportOperationTimeline } from './report-schema.js';

/** Points of the shared time axis at most: enough for a chart, few enough for a small page. */
export const TIMELINE_POINTS = 120;

/** One series' samples, `[at, count, bytes, millis]` cumulative, oldest first. */
export interface SampledSeries {
  readonly family: Family;
  readonly operation: string;
  readonly samples: readonly (readonly number[])[];
}

/**
 * The time axis and every operation's throughput and busy share over it: each series' cumulative bytes and time
 * interpolated at the axis' points and summed per operation, then differenced per interval.
 */
export function operationTimelines(series: readonly SampledSeries[]): {
  times: number[];
  timelines: ReportOperationTimeline[];
} {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  // Every series has two samples at least: its zero and its first move.
  for (const { samples } of series) {
    first = Math.min(first, (samples[0] as number[])[0] as number);
    last = Math.max(last, (samples[samples.length - 1] as number[])[0] as number);
  }
  if (!(last > first)) return { times: [], timelines: [] };
  const points = TIMELINE_POINTS;
  const times = Array.from({ length: points }, (_, i) => Math.round(first + ((last - first) * i) / (points - 1)));
  const sums = new Map<string, { family: Family; operation: string; bytes: number[]; millis: number[] }>();
  for (const s of series) {
    const key = `${s.family}\u0000${s.operation}`;
    let sum = sums.get(key);
    if (sum === undefined) {
      sum = {
        family: s.family,
        operation: s.operation,
        bytes: new Array(points).fill(0),
        millis: new Array(points).fill(0),
      };
      sums.set(key, sum);
    }
    for (let i = 0; i < points; i++) {
      const at = times[i] as number;
      sum.bytes[i] = (sum.bytes[i] as number) + valueAt(s.samples, at, 2);
      sum.millis[i] = (sum.millis[i] as number) + valueAt(s.samples, at, 3);
    }
  }
  const timelines = [...sums.values()].map(({ family, operation, bytes, millis }) => ({
    family,
    operation,
    bytesPerSecond: rates(times, bytes, 1000),
    busyShare: rates(times, millis, 1),
  }));
  return { times, timelines };
}

/**
 * Column `column` of the samples at `at`, linear between samples, 0 up to the first (the zero before the series'
 * first move) and the last value after.
 */
function valueAt(samples: readonly (readonly number[])[], at: number, column: number): number {
  let previous: readonly number[] | undefined;
  for (const sample of samples) {
    const t = sample[0] as number;
    // Stryker disable next-line EqualityOperator: a sample at `at` gives its value either way (as the one interpolated from)
    if (t >= at) {
      if (previous === undefined) return 0;
      // The previous sample is before `at`, so before this one: t0 < at <= t.
      const t0 = previous[0] as number;
      const v0 = previous[column] as number;
      const v1 = sample[column] as number;
      return v0 + ((v1 - v0) * (at - t0)) / (t - t0);
    }
    previous = sample;
  }
  // After the last sample (a series has two at least).
  return (previous as readonly number[])[column] as number;
}

/** Per interval: the rise of `values` over the time it took (ms), times `scale`; null for the first point. */
function rates(times: readonly number[], values: readonly number[], scale: number): (number | null)[] {
  return values.map((value, i) => {
    // Stryker disable next-line ConditionalExpression: without it the first interval's length is NaN, which gives null too
    if (i === 0) return null;
    const dt = (times[i] as number) - (times[i - 1] as number);
    return dt > 0 ? round(((value - (values[i - 1] as number)) * scale) / dt) : null;
  });
}

/** Six significant digits: what a chart shows, at a third of the characters. */
export function round(value: number): number {
  // 0, NaN and the infinities come back as they were.
  return Number(value.toPrecision(6));
}
