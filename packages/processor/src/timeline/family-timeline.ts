import type { Attributes } from '@opentelemetry/api';
import type { LocalHistogram } from '../histogram/local-histogram.js';
import type { Family } from '../naming/naming-types.js';
import {
  type ExpectedProgress,
  KEPT_RUNS,
  type RunEnding,
  type RunObserver,
  type RunProfile,
  type StageTime,
} from './run-profile.js';
import { type ProgressReading, RunProgress } from './run-progress.js';
import { SeriesTimeline } from './series-timeline.js';

/** The numbers of one series the timeline reads: a series handle's pending numbers, attributes and histogram. */
export interface TimedHandle {
  readonly attributes: Attributes;
  readonly histogram: LocalHistogram | undefined;
  readonly count: number;
  readonly bytes: number;
  readonly durationMillis: number;
}

/** A series with its timeline, as the report reads it. */
export interface TimedSeries {
  readonly handle: TimedHandle;
  readonly timeline: SeriesTimeline;
}

/**
 * The operation whose bytes are what a run stored, whatever the component and implementation that wrote them (a
 * file, an S3 upload).
 */
const STORED_OPERATION = 'Destination:Write';

/** A run in progress: where each series stood when it started. */
interface Baseline {
  readonly attributes: Attributes;
  /** Unix ms, when the run book told of the start. */
  readonly startedAt: number;
  readonly at: Map<TimedHandle, readonly [number, number, number]>;
}

/**
 * The timeline of one family: each series' {@link SeriesTimeline}, sampled at the family's
 * flushes, and the profiles of its latest runs. Nothing here runs on the record path: the registry calls
 * {@link before} and {@link after} around the drain of its flush queue, and the run book notifies it of runs.
 */
export class FamilyTimeline implements RunObserver {
  private readonly series = new Map<TimedHandle, SeriesTimeline>();
  /** The handles of the flush under way. */
  private readonly moving: TimedHandle[] = [];
  private lastFlushAt = Date.now();
  private readonly open = new Map<object, Baseline>();
  private readonly kept: RunProfile[] = [];
  /** The runs in progress that were given an expected size. */
  private readonly progressing = new Map<object, RunProgress>();
  /** With a run in {@link progressing}: what each handle of the flush under way held before the drain. */
  private readonly movingBytes: number[] = [];

  constructor(
    readonly family: Family,
    /** Calls `each` with every series of the family, the overflow series included. */
    private readonly eachHandle: (each: (handle: TimedHandle) => void) => void,
    /** Folds what worker threads recorded into the series, so that a run's start and end see it. */
    private readonly readWorkers: () => void,
    /**
     * False for unthrottled stats, whose records go to the instruments at once past the timeline: a run's stages
     * and stored bytes are then unknown.
     */
    private readonly measures: boolean,
  ) {}

  /** Before the flush queue is drained: counts what each queued handle holds as taken. */
  before(queue: readonly TimedHandle[]): void {
    for (const handle of queue) {
      let timeline = this.series.get(handle);
      if (timeline === undefined) {
        timeline = new SeriesTimeline(this.lastFlushAt);
        this.series.set(handle, timeline);
      } else if (timeline.lastAt < this.lastFlushAt) {
        // Idle through the flushes since its last sample: the step starts at the last flush, not back then.
        timeline.sample(this.lastFlushAt);
      }
      timeline.count += handle.count;
      timeline.bytes += handle.bytes;
      timeline.millis += handle.durationMillis;
      this.moving.push(handle);
      // Stryker disable next-line ConditionalExpression,EqualityOperator: the check only spares a store: after() empties both
      if (this.progressing.size > 0) this.movingBytes.push(handle.bytes);
    }
  }

  /**
   * After the drain: gives back what the instruments did not take (a throwing instrument, a byte's fraction), so
   * that the timeline holds exactly what was exported, and samples every series that moved. `wholeQueue` is false
   * when only some series were drained (a series' first numbers, which go at once): the others still hold what
   * they recorded since the last flush, so that flush stays where their next step starts.
   */
  after(wholeQueue = true): void {
    const at = Date.now();
    for (const handle of this.moving) {
      const timeline = this.series.get(handle) as SeriesTimeline;
      timeline.count -= handle.count;
      timeline.bytes -= handle.bytes;
      timeline.millis -= handle.durationMillis;
      timeline.sample(at);
    }
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the check only spares a loop over no run
    if (this.progressing.size > 0) this.advanceProgress(at);
    this.moving.length = 0;
    this.movingBytes.length = 0;
    if (wholeQueue) this.lastFlushAt = at;
  }

  /** Adds to each run in progress the bytes of its operation the instruments took in this flush. */
  private advanceProgress(at: number): void {
    for (const progress of this.progressing.values()) {
      let bytes = 0;
      // A run started during the drain (by nothing of the library's) finds no bytes counted before it: none.
      if (this.movingBytes.length === this.moving.length) {
        for (let i = 0; i < this.moving.length; i++) {
          const handle = this.moving[i] as TimedHandle;
          if (handle.attributes.operation === progress.operation)
            bytes += (this.movingBytes[i] as number) - handle.bytes;
        }
      }
      progress.advance(at, bytes);
    }
  }

  /**
   * Where a run given an expected size stands now (one wall-clock read, and a pass over the family's series for
   * what they hold since the latest flush). The run book asks it only of its runs in progress given a size.
   */
  progress(run: object): ProgressReading {
    const progress = this.progressing.get(run) as RunProgress;
    let pending = 0;
    this.eachHandle((handle) => {
      if (handle.attributes.operation === progress.operation) pending += handle.bytes;
    });
    return progress.reading(Date.now(), pending);
  }

  /** Every series that was flushed at least once. */
  timedSeries(): TimedSeries[] {
    return [...this.series].map(([handle, timeline]) => ({ handle, timeline }));
  }

  /** The latest ended runs, oldest first. */
  runs(): readonly RunProfile[] {
    return this.kept;
  }

  started(run: object, attributes: Attributes, expected?: ExpectedProgress): void {
    const at = this.positions();
    this.open.set(run, { attributes, startedAt: Date.now(), at });
    if (expected === undefined) return;
    // What its operation's series hold now was recorded before the run: the next flush takes it, not as progress.
    let pending = 0;
    this.eachHandle((handle) => {
      if (handle.attributes.operation === expected.operation) pending += handle.bytes;
    });
    this.progressing.set(
      run,
      new RunProgress(expected.expectedBytes, expected.operation, Date.now(), -pending, pending),
    );
  }

  expecting(run: object, expected: ExpectedProgress): void {
    // The run book gives a size only to a run in progress that has none.
    const baseline = this.open.get(run) as Baseline;
    // Taken since the start: what the operation's series took or hold now, less where they stood at the start
    // (the start's positions count what they held then), less what they hold now (the next flush takes it).
    let taken = 0;
    let pending = 0;
    for (const [handle, [, moved]] of this.positions()) {
      if (handle.attributes.operation !== expected.operation) continue;
      taken += moved - (baseline.at.get(handle)?.[1] ?? 0) - handle.bytes;
      pending += handle.bytes;
    }
    this.progressing.set(run, new RunProgress(expected.expectedBytes, expected.operation, Date.now(), taken, pending));
  }

  ended(
    run: object,
    { outcome, seconds, endedAt, bytes, storedBytes, overlapped, reason }: RunEnding,
  ): number | undefined {
    // The run book ends only the runs it started, each told to this timeline; no one reads an ended run's
    // progress or start again, so the two deletes only free them.
    // Stryker disable next-line CallExpression: the run's progress is never read again
    this.progressing.delete(run);
    const baseline = this.open.get(run) as Baseline;
    // Stryker disable next-line CallExpression: the run's start is never read again
    this.open.delete(run);
    const stages: StageTime[] = [];
    // Undefined until a write of the family moved while the run was in progress: a run without a metered
    // destination stored an unknown amount, not nothing.
    let written: number | undefined;
    for (const [handle, [count, moved, millis]] of this.positions()) {
      const [count0, bytes0, millis0] = baseline.at.get(handle) ?? [0, 0, 0];
      if (handle.attributes.operation === STORED_OPERATION && count > count0) written = (written ?? 0) + moved - bytes0;
      if (handle.attributes === baseline.attributes) continue;
      if (count > count0) {
        stages.push({
          attributes: handle.attributes,
          count: count - count0,
          bytes: moved - bytes0,
          millis: millis - millis0,
        });
      }
    }
    // Whatever wrote in the family while another run was in progress may be either's: only the caller knows then.
    const stored =
      storedBytes ?? (overlapped || !this.measures || written === undefined ? undefined : Math.trunc(written));
    const profile: RunProfile = {
      family: this.family,
      attributes: baseline.attributes,
      outcome,
      reason,
      startedAt: baseline.startedAt,
      endedAt,
      seconds,
      bytes,
      storedBytes: stored,
      stages,
    };
    if (this.kept.push(profile) > KEPT_RUNS) this.kept.shift();
    return stored;
  }

  /** Where every series stands now: what its instruments took plus what it holds. */
  private positions(): Map<TimedHandle, readonly [number, number, number]> {
    this.readWorkers();
    const at = new Map<TimedHandle, readonly [number, number, number]>();
    this.eachHandle((handle) => {
      const timeline = this.series.get(handle);
      at.set(handle, [
        (timeline?.count ?? 0) + handle.count,
        (timeline?.bytes ?? 0) + handle.bytes,
        (timeline?.millis ?? 0) + handle.durationMillis,
      ]);
    });
    return at;
  }
}
