import { describeValue, ERROR_CODES, notAccepted, showValue } from '../base/errors.js';
import { DEFAULT_HISTOGRAM_BOUNDARIES } from './explicit-buckets.js';
import type { HistogramProducer } from './histogram-producer.js';

/** The histogram options after defaults and checks. */
export interface ResolvedHistogramOptions {
  readonly histograms: boolean;
  readonly histogramBoundaries: readonly number[];
  readonly histogramProducers: readonly HistogramProducer[];
}

/** How an invalid option is blamed: on the option in code, or on the variable that set it; `detail` says which rule. */
export type Blame = (
  option: 'histograms' | 'histogramBoundaries',
  value: unknown,
  accepted: string,
  detail?: string,
) => TypeError;

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
  const problem = boundaryProblem(histogramBoundaries);
  if (problem !== undefined) throw blame('histogramBoundaries', histogramBoundaries, BOUNDARIES_ACCEPTED, problem);
  const producers: readonly unknown[] = Array.isArray(histogramProducers) ? histogramProducers : [];
  const bad = producers.findIndex((p) => !isProducer(p));
  if (!Array.isArray(histogramProducers) || bad !== -1) {
    throw notAccepted(
      ERROR_CODES.INVALID_OPTION,
      'option histogramProducers',
      showValue(histogramProducers),
      'an array of producers made by createHistogramProducer()',
      bad === -1 ? undefined : `item ${bad + 1} is ${describeValue(producers[bad])}, not a producer`,
    );
  }
  return {
    histograms,
    histogramBoundaries: Object.freeze([...(histogramBoundaries as readonly number[])]),
    histogramProducers: Object.freeze([...(histogramProducers as readonly HistogramProducer[])]),
  };
}

/** Which rule a list of boundaries breaks, for the message; undefined when it is one. */
export function boundaryProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return 'not an array';
  if (value.length === 0) return 'empty';
  if (value.length > MAX_BOUNDARIES) return `${value.length} boundaries, more than ${MAX_BOUNDARIES}`;
  for (const [i, b] of value.entries()) {
    // Number.isFinite is false for anything but a finite number (no conversion, unlike the global isFinite).
    if (!Number.isFinite(b) || b <= 0) return `boundary ${i + 1} is ${showValue(b)}, not a finite number above 0`;
    const before = value[i - 1] as number;
    // `i >= 0` or `true` in the two checks below are equivalent mutants (at i = 0, `before` is undefined, which
    // no boundary equals or exceeds); not disabled, so that the mutants of the comparisons of `b` stay tested.
    if (i > 0 && b === before) return `boundary ${i + 1} repeats ${showValue(before)}`;
    if (i > 0 && b < before) return `boundary ${i + 1} is ${showValue(b)}, below ${showValue(before)}: not increasing`;
  }
  return undefined;
}

function isProducer(value: unknown): value is HistogramProducer {
  return typeof (value as Partial<HistogramProducer> | null | undefined)?.collect === 'function';
}
