/** Median, extremes and relative spread of repeated measurements of one case. */
// @ts-nocheck

export interface Summary {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly samples: number;
}

/** Summarizes a non-empty list of measurements. */
export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) throw new Error('summarize: no measurement to summarize');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const median =
    sorted.length % 2 === 1
      ? (sorted[middle] as number)
      : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  return { median, min: sorted[0] as number, max: sorted[sorted.length - 1] as number, samples: sorted.length };
}

/** (max - min) / median, in percent: how far apart the repeated runs were. */
export function spreadPercent(summary: Summary): number {
  return summary.median === 0 ? 0 : ((summary.max - summary.min) / summary.median) * 100;
}

/** Milliseconds elapsed since `start` (a value of `process.hrtime.bigint()`). */
export function elapsedMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}
