/**
 * The local histograms' base-2 exponential buckets, OpenTelemetry's layout at scale 3: bucket i holds the
 * durations d (in seconds) with 2^(i/8) < d ≤ 2^((i+1)/8), each bucket 9 % wider than the one below. The range
 * kept is 1 µs to 1 h (255 buckets); durations outside it land in the edge buckets, while count, sum, min and max
 * stay exact. The index comes from the float's exponent and the top bits of its mantissa: no Math.log, no
 * allocation, about a dozen integer operations.
 */

/** OpenTelemetry's scale: 2^SCALE buckets per doubling. */
export const SCALE = 3;
const PER_OCTAVE = 1 << SCALE;
/** The bucket of 1 µs: (2^-20, 2^(-159/8)] s. */
export const MIN_INDEX = -160;
/** The bucket of 1 h: (2^(94/8), 2^(95/8)] s. */
export const MAX_INDEX = 94;
/** Buckets kept per histogram. */
export const BUCKETS = MAX_INDEX - MIN_INDEX + 1;

/** 2^(k/8) for k = 0..8: the boundaries within one doubling. */
const STEPS = Array.from({ length: PER_OCTAVE + 1 }, (_, k) => 2 ** (k / PER_OCTAVE));

// The float is read through an integer view of the same 8 bytes (little-endian on every platform Node runs on:
// x64, arm64). Module-level, so no array is made per record.
const float = new Float64Array(1);
const words = new Uint32Array(float.buffer);

// The mantissa m of a double in [1, 2) is split by its top 4 bits into 16 intervals of width 1/16; the 8 steps
// are at least 9 % apart, so each interval holds at most one of them. BELOW[t] is how many steps lie below
// interval t; INSIDE_HI / INSIDE_LO are the mantissa bits of the step inside it (none: a high word above any).
const BELOW = new Int32Array(16);
const INSIDE_HI = new Uint32Array(16).fill(0x100000);
const INSIDE_LO = new Uint32Array(16);
for (let k = 0; k < PER_OCTAVE; k++) {
  float[0] = STEPS[k] as number;
  const hi = (words[1] as number) & 0xfffff;
  const t = hi >>> 16;
  INSIDE_HI[t] = hi;
  INSIDE_LO[t] = words[0] as number;
  for (let u = t + 1; u < 16; u++) BELOW[u] = (BELOW[u] as number) + 1;
}

/**
 * The bucket index of a duration of `seconds` (> 0), clamped to {@link MIN_INDEX} … {@link MAX_INDEX}: the i with
 * 2^(i/8) < seconds ≤ 2^((i+1)/8).
 */
export function bucketIndex(seconds: number): number {
  float[0] = seconds;
  const hi = words[1] as number;
  const exponent = (hi >>> 20) - 1023;
  if (exponent < -21) return MIN_INDEX;
  if (exponent > 12) return MAX_INDEX;
  const mantissaHi = hi & 0xfffff;
  const t = mantissaHi >>> 16;
  // How many steps 2^(k/8) lie strictly below the mantissa: those below its interval, and the one inside if less.
  let below = BELOW[t] as number;
  const insideHi = INSIDE_HI[t] as number;
  if (mantissaHi > insideHi || (mantissaHi === insideHi && (words[0] as number) > (INSIDE_LO[t] as number))) below += 1;
  const index = exponent * PER_OCTAVE + below - 1;
  return Math.max(MIN_INDEX, Math.min(index, MAX_INDEX));
}

/** The lower (exclusive) boundary of bucket `index`, in seconds: 2^(index/8). */
export function lowerBoundary(index: number): number {
  const octave = Math.floor(index / PER_OCTAVE);
  return 2 ** octave * (STEPS[index - octave * PER_OCTAVE] as number);
}
