/**
 * The largest pending sum a handle holds, in bytes or milliseconds: 2^53 - 1, about 8 PiB or 285,000 years,
 * beyond which a double no longer counts in ones and a long enough sum would reach Infinity. No real
 * workload gets near it within one flush interval; a record that would carry the sum past it is a bogus
 * value and is dropped and counted like one, rather than flushed early, so that recording never calls into
 * OpenTelemetry (which costs a microsecond, may throw, and may not even be there yet). Handles compare the
 * sums inline: with the test below, that is as many comparisons as checking each value alone.
 */
export const MAX_PENDING = Number.MAX_SAFE_INTEGER;

/**
 * True for a number of zero or more. The `typeof` test keeps strings from turning `+` into concatenation and
 * bigints from throwing; NaN fails the comparison, and infinities fail the pending sum's bound.
 */
export function isAmount(value: unknown): value is number {
  return typeof value === 'number' && value >= 0;
}

/**
 * The largest weight of a sampled duration: the largest block that timing by budget or `timeOneIn` samples (the
 * stream meters' N is at most this). A larger weight is no sample a timing budget produces; taken, one record could
 * add 1e300 to a histogram's count or centuries to the summed time.
 */
export const MAX_WEIGHT = 65_536;

/**
 * True for a whole number of operations from 0 to {@link MAX_WEIGHT}: the weight of a sampled duration. A fractional
 * weight would make histogram counts fractional (OTLP carries them as integers).
 */
export function isWeight(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_WEIGHT;
}
