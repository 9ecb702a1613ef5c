import { notAccepted, showValue } from '../base/errors.js';
import { DEFAULT_HISTOGRAM_BOUNDARIES } from './explicit-buckets.js';
import type { HistogramProducer } from './histogram-producer.js';

/** The histogram options after defaults and checks. */
export interface ResolvedHistogramOptions {
  readonly histograms: boolean;
  readonly histogramBoundaries: readonly number[];
  readonly histogramProducers: readonly HistogramProducer[];
}

/** How an invalid option is blamed: on the option in code, or on the variable that set it. */
export type Blame = (option: 'histograms' | 'histogramBoundaries', value: unknown, accepted: string) => TypeError;

/** The most explicit boundaries accepted: more would make every series' histogram large. */
export const MAX_BOUNDARIES = 64;

const BOUNDARIES_ACCEPTED = `1 to ${MAX_BOUNDARIES} finite numbers of seconds above 0, in increasing order (e.g. [0.001, 0.01, 0.1, 1, 10])`;

/** Applies the histogram options' defaults and checks them. */
export function resolveHistogramOptions(
  given: {
    readonly histograms?: unknown;
    readonly histogramBoundaries?: unknown;
    readonly histogramProducers?: unknown;
  },
  blame: Blame,
): ResolvedHistogramOptions {
  const { histograms = true, histogramBoundaries = DEFAULT_HISTOGRAM_BOUNDARIES, histogramProducers = [] } = given;
  if (typeof histograms !== 'boolean') throw blame('histograms', histograms, 'true or false');
  if (!isBoundaryList(histogramBoundaries)) {
    throw blame('histogramBoundaries', histogramBoundaries, BOUNDARIES_ACCEPTED);
  }
  if (!Array.isArray(histogramProducers) || !histogramProducers.every(isProducer)) {
    throw notAccepted(
      'option histogramProducers',
      Array.isArray(histogramProducers) ? 'an array holding something else' : showValue(histogramProducers),
      'an array of producers made by createHistogramProducer()',
    );
  }
  return {
    histograms,
    histogramBoundaries: Object.freeze([...histogramBoundaries]),
    histogramProducers: Object.freeze([...histogramProducers]),
  };
}

/** True for 1 to MAX_BOUNDARIES finite numbers above 0, in increasing order. */
export function isBoundaryList(value: unknown): value is readonly number[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_BOUNDARIES) return false;
  // Number.isFinite is false for anything but a finite number (no conversion, unlike the global isFinite).
  return value.every((b, i) => Number.isFinite(b) && b > 0 && (i === 0 || b > (value[i - 1] as number)));
}

function isProducer(value: unknown): value is HistogramProducer {
  return typeof (value as Partial<HistogramProducer> | null | undefined)?.collect === 'function';
}
