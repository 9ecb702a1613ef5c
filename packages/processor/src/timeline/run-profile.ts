import type { Attributes } from '@opentelemetry/api';
import type { Family } from '../naming/naming-types.js';
import type { ProgressReading } from './run-progress.js';

/** How a run ended, as the API's RunOutcome says (api/ sits above this layer). */
export type RunOutcome = 'success' | 'failure' | 'partial';

/** The time one series spent during one run: what the instruments took (or still held) between its start and end. */
export interface StageTime {
  readonly attributes: Attributes;
  readonly count: number;
  readonly bytes: number;
  readonly millis: number;
}

/** One ended run and where its time went. */
export interface RunProfile {
  readonly family: Family;
  /** The attributes of the handle the run was started from. */
  readonly attributes: Attributes;
  readonly outcome: RunOutcome;
  /** The reason, for a failure or a partial end. */
  readonly reason: string | undefined;
  /**
   * When it started, Unix ms, read at its start: its end less its duration would place two runs started within a
   * millisecond of each other in either order, since the wall clock counts whole milliseconds.
   */
  readonly startedAt: number;
  /** When it ended, Unix ms. */
  readonly endedAt: number;
  readonly seconds: number;
  /** The bytes a success or a partial end was given (what the run read), if any. */
  readonly bytes: number | undefined;
  /** The bytes the run stored: given at its end, or else measured (see {@link RunEnding.storedBytes}). */
  readonly storedBytes: number | undefined;
  /** Every other series of the family that moved while the run was in progress, its own series left out. */
  readonly stages: readonly StageTime[];
}

/** How a run ended, as its run book recorded it. */
export interface RunEnding {
  readonly outcome: RunOutcome;
  readonly seconds: number;
  /** Unix ms: the run book's own read of the wall clock. */
  readonly endedAt: number;
  readonly bytes: number | undefined;
  /** The stored bytes its caller gave, which win over any measured. */
  readonly storedBytes: number | undefined;
  /** True when another run of the family was in progress with it: its stored bytes are then only what was given. */
  readonly overlapped: boolean;
  readonly reason: string | undefined;
}

/** What a run given an expected size follows: its size and the operation whose bytes are its progress. */
export interface ExpectedProgress {
  readonly expectedBytes: number;
  readonly operation: string;
}

/** What a run book notifies the timeline of (runs/run-book.ts): a run started, a run ended; and what it asks of it. */
export interface RunObserver {
  started(run: object, attributes: Attributes, expected?: ExpectedProgress): void;
  /** Returns the bytes the run stored: those given, or else those measured, if known. */
  ended(run: object, ending: RunEnding): number | undefined;
  /** A run in progress was given its expected size: its progress counts from its start. */
  expecting(run: object, expected: ExpectedProgress): void;
  /** Where a run given an expected size stands now. */
  progress(run: object): ProgressReading | undefined;
}

/** Runs each family keeps for the report: the latest ones. */
export const KEPT_RUNS = 50;
