/** Largest finite double: anything above it is Infinity. */
const MAX = Number.MAX_VALUE;

/**
 * True for a finite number of zero or more. The `typeof` test keeps strings from turning `+=` into
 * concatenation; the range test rejects NaN, negatives and infinities in one comparison pair.
 */
export function isValidAmount(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value <= MAX;
}
