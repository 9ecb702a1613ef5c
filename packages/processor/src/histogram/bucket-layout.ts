/**
 * The local histograms' base-2 exponential buckets, OpenTelemetry's layout at scale 3: bucket i holds the
 * durations d (in seconds) with 2^(i/8) < d ≤ 2^((i+1)/8), each bucket 9 % wider than the one below. The range
 * kept is 1 µs to 1 h (255 buckets); durations outside it land in the edge buckets, while count, sum, min and max
 * stay exact. The index comes from the exponent and the top bits of the mantissa of the duration in milliseconds, as
 * it is recorded (no division into seconds): no Math.log, no allocation, about a dozen integer operations.
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

/** The tables of the bucket index, built once and shared by every histogram. */
interface IndexTables {
  /** A scratch double, read back through `words` (little-endian on every platform Node runs on: x64, arm64). */
  readonly float: Float64Array;
  readonly words: Uint32Array;
  /**
   * The mantissa m of a double in [1, 2) is split by its top 4 bits into 16 intervals of width 1/16; the 8 steps
   * of a doubling are at least 9 % apart, so each interval holds at most one. `below[t]` is how many steps lie below
   * interval t; `insideHi` / `insideLo` are the mantissa bits of the step inside it (none: a high word above any).
   */
  readonly below: Int32Array;
  readonly insideHi: Uint32Array;
  readonly insideLo: Uint32Array;
}

function indexTables(): IndexTables {
  const float = new Float64Array(1);
  const words = new Uint32Array(float.buffer);
  const below = new Int32Array(16);
  const insideHi = new Uint32Array(16).fill(0x100000);
  const insideLo = new Uint32Array(16);
  // The boundaries in milliseconds, 1000 × 2^(i/8): their mantissas repeat every 8 buckets (× 2 is exact), so the 8
  // of one doubling, in milliseconds, are the steps a mantissa is compared with.
  // Stryker disable next-line EqualityOperator: step k = 8 (2000 ms) has 1000 ms's mantissa: the same tables
  for (let k = 0; k < PER_OCTAVE; k++) {
    float[0] = stepMillis(k);
    const hi = (words[1] as number) & 0xfffff;
    const t = hi >>> 16;
    insideHi[t] = hi;
    insideLo[t] = words[0] as number;
    // Stryker disable next-line EqualityOperator: the extra write is below[16], past the typed array's end: ignored
    for (let u = t + 1; u < 16; u++) below[u] = (below[u] as number) + 1;
  }
  return { float, words, below, insideHi, insideLo };
}

/**
 * The boundary 2^(k/8) s (k = 0..7) in milliseconds as the tables hold it: the largest double at or below
 * 1000 × 2^(k/8), so that a duration is above the boundary exactly when it is above that double. The rounded
 * product is that double or, for most k, the one after it, which is above the boundary: a duration of exactly that
 * double would land in the bucket below its own. The comparison is exact, in integers: a double in [1000, 2000) is
 * an integer times 2^-43, and millis ≤ 1000 × 2^(k/8) ⟺ (millis × 2^43)^8 ≤ 1000^8 × 2^(k + 344).
 */
function stepMillis(k: number): number {
  const atMost = (millis: number): boolean => BigInt(millis * 2 ** 43) ** 8n <= (1000n ** 8n) << BigInt(k + 344);
  let millis = 1000 * 2 ** (k / PER_OCTAVE);
  while (!atMost(millis)) millis = nextDouble(millis, -1);
  return millis;
}

const TABLES = indexTables();

/**
 * Finds the bucket of a duration in milliseconds from the exponent and the top bits of its mantissa. The local
 * histogram extends it, so that the tables are its own fields, read through `this`: as module-level variables
 * (which the bundler turns into `var`s the JIT compiler cannot fold) they made the index cost three times as much.
 */
export class BucketIndex {
  private readonly float = TABLES.float;
  private readonly words = TABLES.words;
  private readonly belowStep = TABLES.below;
  private readonly insideHi = TABLES.insideHi;
  private readonly insideLo = TABLES.insideLo;

  constructor(
    /** What turns 8 × exponent + steps below the mantissa into the bucket's offset from MIN_INDEX. */
    private readonly shift: number = SHIFT,
  ) {}

  /**
   * The bucket of a duration of `millis` (> 0) as an offset from MIN_INDEX, clamped to the range kept: the bucket
   * i = MIN_INDEX + offset with 2^(i/8) < millis / 1000 ≤ 2^((i+1)/8).
   */
  offsetOf(millis: number): number {
    const words = this.words;
    this.float[0] = millis;
    const hi = words[1] as number;
    const mantissaHi = hi & 0xfffff;
    const t = mantissaHi >>> 16;
    // How many of the doubling's steps lie strictly below the mantissa: those below its interval, and the one in it.
    // The one in it is compared without a branch (a data-dependent branch here is mispredicted on varied durations,
    // and was the largest part of the record's cost): both words are below 2^21, so the difference's sign bit says
    // whether the mantissa's high word is above the step's. Only an equal high word, about one duration in a
    // million, compares the low words in a branch.
    const insideHi = this.insideHi[t] as number;
    let below = (this.belowStep[t] as number) + ((insideHi - mantissaHi) >>> 31);
    if (mantissaHi === insideHi && (words[0] as number) > (this.insideLo[t] as number)) below += 1;
    const offset = ((hi >>> 20) - 1023) * PER_OCTAVE + below + this.shift;
    // `offset <= 0` is an equivalent mutant (both give 0 at offset 0); not disabled, so that the upper clamp's
    // mutants stay tested.
    return offset < 0 ? 0 : offset >= BUCKETS ? BUCKETS - 1 : offset;
  }
}

// The shift, from a duration whose bucket is known: just above 1 s (1000 ms) is bucket 0, at offset -MIN_INDEX. An
// index without a shift finds the unshifted offset; every other index takes this one.
const SHIFT = -MIN_INDEX - new BucketIndex(0).offsetOf(1000 * (1 + 2 ** -40));

/** The double next to `value` (> 0) upwards (1) or downwards (-1). */
export function nextDouble(value: number, direction: 1 | -1): number {
  const bits = new BigInt64Array(new Float64Array([value]).buffer);
  bits[0] = (bits[0] as bigint) + BigInt(direction);
  return new Float64Array(bits.buffer)[0] as number;
}
