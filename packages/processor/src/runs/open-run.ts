import type { Run, RunEndDetails } from '../api/run.js';
import type { RunFailureReason } from '../api/run-failure.js';
import type { ExpectedProgress } from '../timeline/run-profile.js';
import type { ProgressSeries } from './progress-series.js';
import type { RunSeries } from './run-series.js';

/** What ends an {@link OpenRun}: the run book of its family. */
export interface RunEnd {
  succeed(run: OpenRun, bytes: unknown, details: unknown): void;
  fail(run: OpenRun, reason: RunFailureReason | undefined): void;
  partial(run: OpenRun, reason: unknown, bytes: unknown, details: unknown): void;
  warn(run: OpenRun, reason: unknown): void;
  phase(run: OpenRun, name: unknown): void;
  expectBytes(run: OpenRun, bytes: unknown, operation: unknown): void;
}

/** A run in progress: where it records, and when it started (the one clock read of its start). */
export class OpenRun implements Run {
  readonly startedAt = performance.now();
  /** True once another run of its family was in progress with it: the family's writes are then not all its own. */
  overlapped = false;

  constructor(
    private readonly book: RunEnd,
    readonly series: RunSeries,
    /** The gauges of its handle's runs in progress, for a run given an expected size or a phase. */
    public progress: ProgressSeries | undefined,
    public expected: ExpectedProgress | undefined,
  ) {}

  succeed(bytes?: number, details?: RunEndDetails): void {
    this.book.succeed(this, bytes, details);
  }

  fail(reason?: RunFailureReason): void {
    this.book.fail(this, reason);
  }

  partial(reason?: RunFailureReason, bytes?: number, details?: RunEndDetails): void {
    this.book.partial(this, reason, bytes, details);
  }

  warn(reason?: RunFailureReason): void {
    this.book.warn(this, reason);
  }

  phase(name: string): void {
    this.book.phase(this, name);
  }

  expectBytes(bytes: number, progressOperation?: string): void {
    this.book.expectBytes(this, bytes, progressOperation);
  }
}
