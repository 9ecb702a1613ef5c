// @ts-nocheck
// Exact references for the histogram tests, in integer arithmetic (no logarithm, no rounding): the doubles next to
// a duration, and the scale-3 bucket of a duration in milliseconds as OpenTelemetry defines it,
// 2^(i/8) < millis / 1000 ≤ 2^((i+1)/8), decided on the double's exact value.

/** The double next to `value` (≥ 0) upwards (1) or downwards (-1). */
export function nextDouble(value: number, direction: 1 | -1): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  view.setBigUint64(0, view.getBigUint64(0) + BigInt(direction));
  return view.getFloat64(0);
}

/** Whether a duration of `millis` (> 0) is above 2^(i/8) s, exactly: millis^8 > 1000^8 × 2^i. */
export function isAbove(millis: number, i: number): boolean {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, millis);
  const bits = view.getBigUint64(0);
  const exponent = Number(bits >> 52n);
  const fraction = bits & (2n ** 52n - 1n);
  // millis = mantissa × 2^power, both integers (subnormals included).
  const [mantissa, power] = exponent === 0 ? [fraction, -1074] : [fraction | (2n ** 52n), exponent - 1075];
  const shift = 8 * power - i;
  const left = mantissa ** 8n;
  const right = 1000n ** 8n;
  return shift >= 0 ? left << BigInt(shift) > right : left > right << BigInt(-shift);
}

/** The scale-3 bucket of a duration of `millis` (> 0), exactly, without the 1 µs … 1 h range's clamping. */
export function exactBucket(millis: number): number {
  // The logarithm lands within a bucket or two of the answer; the exact comparisons decide.
  let i = Math.floor(Math.log2(millis / 1000) * 8);
  while (!isAbove(millis, i)) i -= 1;
  while (isAbove(millis, i + 1)) i += 1;
  return i;
}

/** The largest duration in ms at or below 2^(i/8) s: the top of bucket i - 1 (the next double is in bucket i). */
export function topBelow(i: number): number {
  let millis = 1000 * 2 ** (i / 8);
  while (isAbove(millis, i)) millis = nextDouble(millis, -1);
  while (!isAbove(nextDouble(millis, 1), i)) millis = nextDouble(millis, 1);
  return millis;
}
