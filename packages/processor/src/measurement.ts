/**
 * The largest pending sum a handle holds, in bytes or milliseconds: 2^53 - 1, about 8 PiB or 285,000 years,
 * beyond which a double no longer counts in ones and a long enough sum would reach Infinity. No real
 * workload gets near it within one flush interval; a record that would carry the sum past it is a bogus
 * value and is dropped and counted like one, rather than flushed early, so that recording never calls into
 * OpenTelemetry (which costs a microsecond, may throw, and may not even be there yet).
 */
const MAX_PENDING = Number.MAX_SAFE_INTEGER;

/**
 * Returns `pending + value`, or -1 when `value` is not a number of zero or more or the sum would pass
 * {@link MAX_PENDING}. The `typeof` test keeps strings from turning `+` into concatenation and bigints from
 * throwing; the range tests reject NaN, negatives and infinities with the same comparisons.
 */
export function addAmount(pending: number, value: unknown): number {
  if (typeof value !== 'number' || !(value >= 0)) return -1;
  const sum = pending + value;
  return sum <= MAX_PENDING ? sum : -1;
}
