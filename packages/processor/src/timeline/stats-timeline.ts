import type { FamilyTimeline } from './family-timeline.js';

/** What the report reads of one stats instance: every family's timeline and runs. */
export interface StatsTimeline {
  /** When the stats were created, Unix ms. */
  readonly createdAt: number;
  /** Every family's timeline, in the order of FAMILIES. */
  readonly families: readonly FamilyTimeline[];
  /** Flushes the stats (so that the timeline holds every measurement), reporting a failure through `diag`. */
  flush(): void;
  /** False for unthrottled stats (`flushIntervalMillis: 0`), whose records go to the instruments at once: no timeline. */
  readonly kept: boolean;
  /** The explicit boundaries of the histograms in seconds, or undefined when the stats keep none. */
  readonly histogramBoundaries: readonly number[] | undefined;
}

/** The timeline of every stats instance, by the object handed to the user; read by `backupstats/report`. */
const timelines = new WeakMap<object, StatsTimeline>();

/** Makes `timeline` the one {@link timelineOf} returns for `stats`. */
export function attachTimeline(stats: object, timeline: StatsTimeline): void {
  timelines.set(stats, timeline);
}

/** The timeline of stats made by `createBackupStats` or `startBackupStats`; undefined for any other object. */
export function timelineOf(stats: unknown): StatsTimeline | undefined {
  // A WeakMap answers undefined for what cannot be a key (null, a string), so no check of the type is needed.
  return timelines.get(stats as object);
}
