/** The window of the throughput behind the time left: the bytes of the last minute, not the run's average. */
export const PROGRESS_WINDOW_MILLIS = 60_000;
/** Flushes closer than this to the latest kept sample replace it, so that a window holds at most 17 samples. */
const SPACING_MILLIS = PROGRESS_WINDOW_MILLIS / 16;

/** Where a run in progress stands, as its gauges show it. */
export interface ProgressReading {
  /** Bytes done over bytes expected (1 for a run expected to move nothing). */
  readonly ratio: number;
  /** Seconds left at the recent throughput: 0 once done, +Inf when nothing moved within the window. */
  readonly remainingSeconds: number;
  /** When the run last moved (its start until it does), Unix ms. */
  readonly lastProgressAt: number;
}

/**
 * The progress of one run given an expected size: the bytes of its operation taken by the instruments since it
 * started, and samples of them over the last {@link PROGRESS_WINDOW_MILLIS} for the recent throughput. Only flushes
 * move it (the family's timeline calls {@link advance}), so a record costs nothing more.
 */
export class RunProgress {
  /** Bytes taken since the start, less what was pending at the start (recorded before it): can start below 0. */
  private taken: number;
  private lastMovedAt: number;
  /** Samples, oldest first: the first is at or before the window's start once the run is long enough. */
  private readonly at: number[];
  private readonly done: number[];

  constructor(
    readonly expectedBytes: number,
    readonly operation: string,
    /** Unix ms: the start, or when a run in progress learned its size. */
    startedAt: number,
    /** Bytes already taken as its progress (a run given its size late), less the pending ones that are not its. */
    taken: number,
    /** What its operation's series hold now, which the next flush takes. */
    pending: number,
  ) {
    this.taken = taken;
    this.lastMovedAt = startedAt;
    this.at = [startedAt];
    this.done = [Math.max(0, taken + pending)];
  }

  /** Bytes done: never below 0. */
  get doneBytes(): number {
    return Math.max(0, this.taken);
  }

  /** At a flush at `at` (Unix ms) the instruments took `bytes` bytes of the run's operation. */
  advance(at: number, bytes: number): void {
    const before = this.doneBytes;
    this.taken += bytes;
    const done = this.doneBytes;
    if (done > before) this.lastMovedAt = at;
    const last = this.at.length - 1;
    // A lone sample (the start, or the window's first) is never replaced: there is none before it.
    if (at - (this.at[last - 1] ?? Number.NEGATIVE_INFINITY) < SPACING_MILLIS) {
      this.at[last] = at;
      this.done[last] = done;
    } else {
      this.at.push(at);
      this.done.push(done);
    }
    // Stryker disable next-line CallExpression: a reading drops the same ones; this bounds them between readings
    this.dropBefore(at);
  }

  /**
   * Drops the samples older than the newest one at or before the window's start at `now` (Unix ms), which becomes
   * the first: the throughput then spans the whole window. While the run is younger than the window, the first
   * stays its start.
   */
  private dropBefore(now: number): void {
    // With one sample left there is no second one to become the first.
    while ((this.at[1] ?? Number.POSITIVE_INFINITY) <= now - PROGRESS_WINDOW_MILLIS) {
      this.at.shift();
      this.done.shift();
    }
  }

  /**
   * Where the run stands at `now` (Unix ms), with `pending` bytes of its operation recorded since the latest flush:
   * read at a collection, whether the collection's own flush came before or comes after. The samples that the
   * window left behind by then are dropped.
   */
  reading(now: number, pending: number): ProgressReading {
    this.dropBefore(now);
    const done = Math.max(0, this.taken + pending);
    const expected = this.expectedBytes;
    const span = now - (this.at[0] as number);
    const moved = done - (this.done[0] as number);
    let remainingSeconds = Number.POSITIVE_INFINITY;
    if (done >= expected) remainingSeconds = 0;
    // No time since the first sample (read in the millisecond of the start): no throughput yet. Nothing moved
    // since it: the division by 0 gives +Inf.
    else if (span > 0) remainingSeconds = ((expected - done) * span) / Math.max(0, moved) / 1000;
    return {
      ratio: expected === 0 ? 1 : done / expected,
      remainingSeconds,
      // Moved since the latest flush: by now.
      lastProgressAt: done > this.doneBytes ? now : this.lastMovedAt,
    };
  }
}
