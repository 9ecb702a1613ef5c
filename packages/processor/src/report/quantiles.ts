/** Explicit bucket counts with what bounds them: the buckets' boundaries (seconds) and the smallest and largest value. */
export interface Buckets {
  readonly boundaries: readonly number[];
  readonly counts: ArrayLike<number>;
  readonly minSeconds: number;
  readonly maxSeconds: number;
}

/**
 * The `q` quantile in seconds, as Prometheus' `histogram_quantile` estimates it (linear within the bucket), with
 * each bucket's ends narrowed to the recorded minimum and maximum. Null when the buckets are empty.
 */
export function quantile(buckets: Buckets, q: number): number | null {
  const { boundaries, counts } = buckets;
  let total = 0;
  for (let i = 0; i < counts.length; i++) total += counts[i] as number;
  if (!(total > 0)) return null;
  const rank = q * total;
  let below = 0;
  // The loop returns at the last bucket with a count at the latest (rank <= total), and rank > 0 passes over the
  // empty buckets (one that met it would follow a bucket with a count that met it first).
  // Stryker disable next-line EqualityOperator: see above
  for (let i = 0; i < counts.length; i++) {
    const count = counts[i] as number;
    if (below + count >= rank) {
      const lower = Math.max(i === 0 ? 0 : (boundaries[i - 1] as number), buckets.minSeconds);
      const upper = Math.min(
        i < boundaries.length ? (boundaries[i] as number) : buckets.maxSeconds,
        buckets.maxSeconds,
      );
      // A bucket that holds a value has upper >= lower, and at equality the interpolation gives lower too.
      // Stryker disable next-line ConditionalExpression,EqualityOperator,MethodExpression: see above
      if (!(upper > lower)) return Math.max(lower, Math.min(upper, buckets.maxSeconds));
      return lower + ((upper - lower) * (rank - below)) / count;
    }
    below += count;
  }
  return buckets.maxSeconds;
}
