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
    if (last > 0 && at - (this.at[last - 1] as number) < SPACING_MILLIS) {
      this.at[last] = at;
      this.done[last] = done;
    } else {
      this.at.push(at);
      this.done.push(done);
    }
    // Keep one sample at or before the window's start, so that the throughput spans the whole window.
    while (this.at.length > 2 && (this.at[1] as number) <= at - PROGRESS_WINDOW_MILLIS) {
      this.at.shift();
      this.done.shift();
    }
  }

  /**
   * Where the run stands at `now` (Unix ms), with `pending` bytes of its operation recorded since the latest flush:
   * read at a collection, whether the collection's own flush came before or comes after.
   */
  reading(now: number, pending: number): ProgressReading {
    const done = Math.max(0, this.taken + pending);
    const expected = this.expectedBytes;
    // The newest sample at or before the window's start, or the oldest one while the run is younger than it.
    let anchor = 0;
    for (let i = 1; i < this.at.length && (this.at[i] as number) <= now - PROGRESS_WINDOW_MILLIS; i++) anchor = i;
    const span = now - (this.at[anchor] as number);
    const moved = done - (this.done[anchor] as number);
    let remainingSeconds = Number.POSITIVE_INFINITY;
    if (done >= expected) remainingSeconds = 0;
    else if (moved > 0 && span > 0) remainingSeconds = ((expected - done) * span) / moved / 1000;
    return {
      ratio: expected === 0 ? 1 : done / expected,
      remainingSeconds,
      // Moved since the latest flush: by now.
      lastProgressAt: done > this.doneBytes ? now : this.lastMovedAt,
    };
  }
}
