import { mergeLabels, ROOT_LABELS, type ResolvedLabels, type ScopeLabels } from './labels.js';
import type { Stats } from './stats.js';

/** One call made on a {@link RecordingStats} tree, with the values exactly as given. */
export interface RecordedCall {
  readonly method: 'timedIncrement' | 'timedIncrementBytes';
  readonly labels: ResolvedLabels;
  /** The bytes given to `timedIncrementBytes`; 0 for `timedIncrement`. */
  readonly bytes: number;
  readonly durationMs: number;
}

/** Sums over recorded calls. */
export interface RecordedTotals {
  readonly count: number;
  readonly bytes: number;
  readonly durationMs: number;
}

/**
 * Stats that keep every call in memory, for unit tests of code that takes a {@link Stats}
 * (the counterpart of Vitess's `FakeStats`). Every handle of one tree shares one call list.
 */
export interface RecordingStats extends Stats {
  /** This handle's labels. */
  readonly labels: ResolvedLabels;
  /** Every call made on any handle of this tree, in order. */
  readonly calls: readonly RecordedCall[];
  scope(labels: ScopeLabels): RecordingStats;
  /** Sums the calls whose labels match every label given in `filter` (all calls when omitted). */
  totals(filter?: ScopeLabels): RecordedTotals;
}

/** Creates a {@link RecordingStats} tree with no label set. */
export function createRecordingStats(): RecordingStats {
  return recordingHandle(ROOT_LABELS, []);
}

function recordingHandle(labels: ResolvedLabels, calls: RecordedCall[]): RecordingStats {
  return {
    labels,
    calls,
    scope: (given) => recordingHandle(mergeLabels(labels, given), calls),
    timedIncrement: (durationMs) => {
      calls.push({ method: 'timedIncrement', labels, bytes: 0, durationMs });
    },
    timedIncrementBytes: (bytes, durationMs) => {
      calls.push({ method: 'timedIncrementBytes', labels, bytes, durationMs });
    },
    totals: (filter = {}) => {
      let count = 0;
      let bytes = 0;
      let durationMs = 0;
      for (const call of calls) {
        if (!matches(call.labels, filter)) continue;
        count += 1;
        bytes += call.bytes;
        durationMs += call.durationMs;
      }
      return { count, bytes, durationMs };
    },
  };
}

function matches(labels: ResolvedLabels, filter: ScopeLabels): boolean {
  return (
    (filter.component === undefined || filter.component === labels.component) &&
    (filter.implementation === undefined || filter.implementation === labels.implementation) &&
    (filter.operation === undefined || filter.operation === labels.operation)
  );
}
