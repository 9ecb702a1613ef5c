import { BUCKETS } from '../histogram/bucket-layout.js';
import type { LocalHistogram } from '../histogram/local-histogram.js';
import { H_COUNT, H_EXPONENTIAL, H_MAX, H_MIN, H_SUM, H_ZERO } from '../link/region-layout.js';

// Cells of a histogram copied from a slot, from its H_COUNT cell on.
const COUNT = 0;
const SUM = H_SUM - H_COUNT;
const MIN = H_MIN - H_COUNT;
const MAX = H_MAX - H_COUNT;
const ZERO = H_ZERO - H_COUNT;
const EXPONENTIAL = H_EXPONENTIAL - H_COUNT;

/** The largest whole count a cell holds exactly. */
const MAX_COUNT = Number.MAX_SAFE_INTEGER;

/**
 * What a consistent copy of a slot's histogram (`read`, from its H_COUNT cell on) holds that no worker writes, or
 * undefined when nothing: counts (the weighted count, the zero count, every bucket) are whole numbers from what was
 * taken (`taken`, the last copy folded; cumulative, they never shrink) to 2^53 - 1; the sum is from 0 up and finite;
 * the minimum and maximum are durations, or the infinities a slot starts with before its first.
 */
export function histogramProblem(read: Float64Array, taken: Float64Array): string | undefined {
  const sum = read[SUM] as number;
  if (!(sum >= 0 && sum < Number.POSITIVE_INFINITY)) return `a histogram sum of ${sum}`;
  const min = read[MIN] as number;
  // A duration or the start's Infinity: from 0 up, Infinity included (NaN fails the comparison).
  if (!(min >= 0)) return `a histogram minimum of ${min}`;
  const max = read[MAX] as number;
  if (!((max >= 0 && max < Number.POSITIVE_INFINITY) || max === Number.NEGATIVE_INFINITY)) {
    return `a histogram maximum of ${max}`;
  }
  for (let i = 0; i < read.length; i++) {
    if (i === SUM || i === MIN || i === MAX) continue;
    const value = read[i] as number;
    if (!(Number.isInteger(value) && value >= (taken[i] as number) && value <= MAX_COUNT)) {
      return `a histogram count of ${value}`;
    }
  }
  return undefined;
}

/**
 * Adds to `histogram` what a worker's slot gained between two consistent reads of it, `taken` then `read` (both
 * copied from the slot's H_COUNT cell on, `explicit` the first explicit bucket among them): count, sum and every
 * bucket by their difference, min and max by comparison. The LocalHistogram then holds the main thread's records
 * and the workers' alike, for the producers to hand over as they do the main thread's alone.
 */
export function foldHistogram(
  histogram: LocalHistogram,
  read: Float64Array,
  taken: Float64Array,
  explicit: number,
): void {
  const count = (read[COUNT] as number) - (taken[COUNT] as number);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: no new record: every difference is 0
  if (count <= 0) return;
  histogram.count += count;
  histogram.sumMillis += (read[SUM] as number) - (taken[SUM] as number);
  histogram.zeroCount += (read[ZERO] as number) - (taken[ZERO] as number);
  if ((read[MIN] as number) < histogram.minMillis) histogram.minMillis = read[MIN] as number;
  if ((read[MAX] as number) > histogram.maxMillis) histogram.maxMillis = read[MAX] as number;
  addDifferences(histogram.exponential, read, taken, EXPONENTIAL, BUCKETS);
  addDifferences(histogram.explicit, read, taken, explicit, histogram.explicit.length);
}

function addDifferences(
  into: Float64Array,
  read: Float64Array,
  taken: Float64Array,
  from: number,
  length: number,
): void {
  // Stryker disable next-line EqualityOperator: the extra index is past the typed array's end: the write is ignored
  for (let i = 0; i < length; i++) {
    const added = (read[from + i] as number) - (taken[from + i] as number);
    // Stryker disable next-line ConditionalExpression: adding 0 changes nothing
    if (added !== 0) into[i] = (into[i] as number) + added;
  }
}
