/** Samples one series keeps at most: a fixed bound, whatever the length of the process. */
export const TIMELINE_SAMPLES = 32;

/** Numbers per sample: the time (Unix ms), then the cumulative operations, bytes and milliseconds. */
const STRIDE = 4;

/**
 * The course of one series over the process: its cumulative operations, bytes and time as the instruments took
 * them, sampled at the flushes where it moved. Its memory is fixed when it is created ({@link TIMELINE_SAMPLES}
 * samples of four doubles, 1 KiB): when full it keeps every other sample and from then on one flush in two (then
 * four, eight…), so the samples always span the whole run at an even resolution. Only flushes touch it.
 */
export class SeriesTimeline {
  /** What the instruments took, cumulative since the series was created. */
  count = 0;
  bytes = 0;
  millis = 0;
  private readonly samples = new Float64Array(TIMELINE_SAMPLES * STRIDE);
  private length = 0;
  /** Moves since the last kept sample. */
  private sinceKept = 0;
  /** Moves per kept sample: doubles each time the samples are halved. */
  private every = 1;
  /** True when the last sample stands for a move between two kept ones: the next move replaces it. */
  private provisional = false;

  /** `since`: the flush before the first move (Unix ms), so that the first interval starts at 0. */
  constructor(since: number) {
    this.samples[0] = since;
    this.length = 1;
  }

  /** When the latest sample was taken, Unix ms. */
  get lastAt(): number {
    return this.samples[(this.length - 1) * 4] as number;
  }

  /** Keeps the state after a flush at `at` (Unix ms) where the series moved. */
  sample(at: number): void {
    if (!this.provisional) this.length += 1;
    const i = (this.length - 1) * STRIDE;
    const s = this.samples;
    s[i] = at;
    s[i + 1] = this.count;
    s[i + 2] = this.bytes;
    s[i + 3] = this.millis;
    this.sinceKept += 1;
    this.provisional = this.sinceKept < this.every;
    if (!this.provisional) this.sinceKept = 0;
    if (this.length === TIMELINE_SAMPLES && !this.provisional) this.halve();
  }

  /** The samples as `[at, count, bytes, millis]`, oldest first; the first is the zero before the first move. */
  toArray(): number[][] {
    const out: number[][] = [];
    for (let i = 0; i < this.length; i++) out.push(Array.from(this.samples.subarray(i * STRIDE, (i + 1) * STRIDE)));
    return out;
  }

  /**
   * Keeps the first sample (the zero) and every second one after it: the odd ones, which end with the latest, since
   * the samples are halved only when all {@link TIMELINE_SAMPLES} (an even number) are taken.
   */
  private halve(): void {
    const s = this.samples;
    let kept = 1;
    // Stryker disable next-line EqualityOperator: i is odd and the length even, so `<=` stops where `<` does
    for (let i = 1; i < this.length; i += 2) {
      s.copyWithin(kept * STRIDE, i * STRIDE, (i + 1) * STRIDE);
      kept += 1;
    }
    this.length = kept;
    this.every *= 2;
  }
}
