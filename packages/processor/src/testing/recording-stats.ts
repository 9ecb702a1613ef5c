import type { ResolvedLabels, ScopeLabels } from '../api/labels.js';
import type { Run, RunEndDetails, RunOptions, RunOutcome } from '../api/run.js';
import type { RunFailureReason } from '../api/run-failure.js';
import type { Stats } from '../api/stats.js';
import { isAmount, isWeight, MAX_PENDING } from '../base/amount.js';
import { noop } from '../base/noop.js';
import { mergeLabels, ROOT_LABELS } from '../family/scope-labels.js';
import { RUN_FAILURE_REASONS, recordedReasonIndex } from '../runs/failure-reasons.js';
import { expectedProgressOf } from '../series/run-options.js';

/** One call made on a {@link RecordingStats} tree, with the values exactly as given. */
export interface RecordedCall {
  /** The method called. */
  readonly method: 'timedIncrement' | 'timedIncrementBytes';
  /** The labels of the handle it was called on. */
  readonly labels: ResolvedLabels;
  /** The bytes given to `timedIncrementBytes`; 0 for `timedIncrement`. */
  readonly bytes: number;
  /** The duration given, in milliseconds. */
  readonly durationMillis: number;
  /** The operations the duration stands for (sampled timing): 1 unless given, 0 for an operation not timed. */
  readonly weight: number;
}

/** Sums over recorded calls. */
export interface RecordedTotals {
  /** Calls. */
  readonly count: number;
  /** Bytes given. */
  readonly bytes: number;
  /** The summed time as the real stats export it: each call's duration times its weight. */
  readonly durationMillis: number;
}

/** One run started on a {@link RecordingStats} tree and ended, as the real stats would record it. */
export interface RecordedRun {
  /** The labels of the handle the run was started from. */
  readonly labels: ResolvedLabels;
  /** How the run ended. */
  readonly outcome: RunOutcome;
  /**
   * For a failure or a partial end, the reason as recorded ({@link backupstats!RunFailure.Other} for one left out or
   * not in the list).
   */
  readonly reason: RunFailureReason | undefined;
  /** From `startRun()` to the end, by `performance.now()`. */
  readonly durationMillis: number;
  /** The bytes given to `succeed()` or `partial()`, if any. */
  readonly bytes: number | undefined;
  /** The `storedBytes` given to `succeed()` or `partial()`, if any (the double measures none). */
  readonly storedBytes: number | undefined;
  /** The reasons of the run's warnings, as recorded, in order. */
  readonly warnings: readonly RunFailureReason[];
}

/**
 * Stats that keep every call in memory, for unit tests of code that takes a {@link Stats}
 * (the counterpart of Vitess's `FakeStats`). Every handle of one tree shares one call list and one run list.
 */
export interface RecordingStats extends Stats {
  /** This handle's labels. */
  readonly labels: ResolvedLabels;
  /**
   * Every call made on any handle of this tree that the real stats record, in order. A call with a value they drop
   * (negative, NaN, infinite, not a number, over `Number.MAX_SAFE_INTEGER`) is in {@link dropped} instead.
   */
  readonly calls: readonly RecordedCall[];
  /**
   * The calls the real stats drop as invalid and count in `backupstats.invalid_measurements`, in order, with their
   * values as given.
   */
  readonly dropped: readonly RecordedCall[];
  /** Every run started on any handle of this tree, in the order they ended; runs in progress are not listed. */
  readonly runs: readonly RecordedRun[];
  scope(labels: ScopeLabels): RecordingStats;
  /**
   * Sums the calls whose labels match every label given in `filter` (all calls when omitted); dropped calls are
   * not summed. The real stats export the whole part of the bytes' sum (an integer counter).
   */
  totals(filter?: ScopeLabels): RecordedTotals;
}

/** Creates a {@link RecordingStats} tree with no label set. */
export function createRecordingStats(): RecordingStats {
  return recordingHandle(ROOT_LABELS, { calls: [], dropped: [], runs: [] });
}

/** What every handle of one tree shares. */
interface Tree {
  readonly calls: RecordedCall[];
  readonly dropped: RecordedCall[];
  readonly runs: RecordedRun[];
}

/** A value the real stats take: a number from 0 to the largest a handle sums. */
const valid = (value: unknown): boolean => isAmount(value) && value <= MAX_PENDING;

function recordingHandle(labels: ResolvedLabels, tree: Tree): RecordingStats {
  const { calls, dropped, runs } = tree;
  const keep = (call: RecordedCall, ok: boolean): void => {
    (ok ? calls : dropped).push(call);
  };
  return {
    labels,
    calls,
    dropped,
    runs,
    scope: (given) => recordingHandle(mergeLabels(labels, given), tree),
    timedIncrement: (durationMillis, weight = 1) => {
      keep(
        { method: 'timedIncrement', labels, bytes: 0, durationMillis, weight },
        isAmount(durationMillis) && isWeight(weight) && valid(durationMillis * weight),
      );
    },
    timedIncrementBytes: (bytes, durationMillis, weight = 1) => {
      keep(
        { method: 'timedIncrementBytes', labels, bytes, durationMillis, weight },
        valid(bytes) && isAmount(durationMillis) && isWeight(weight) && valid(durationMillis * weight),
      );
    },
    startRun: (options?: RunOptions) => {
      expectedProgressOf('startRun', options);
      return recordingRun(labels, runs);
    },
    totals: (filter = {}) => {
      let count = 0;
      let bytes = 0;
      let durationMillis = 0;
      for (const call of calls) {
        if (!matches(call.labels, filter)) continue;
        count += 1;
        bytes += call.bytes;
        durationMillis += call.durationMillis * call.weight;
      }
      return { count, bytes, durationMillis };
    },
  };
}

function recordingRun(labels: ResolvedLabels, runs: RecordedRun[]): Run {
  const startedAt = performance.now();
  let ended = false;
  const warnings: RunFailureReason[] = [];
  const recorded = (reason: unknown) => RUN_FAILURE_REASONS[recordedReasonIndex(reason)] as RunFailureReason;
  const end = (
    outcome: RunOutcome,
    reason: RunFailureReason | undefined,
    bytes: number | undefined,
    details: RunEndDetails | undefined,
  ): void => {
    if (ended) return;
    ended = true;
    const durationMillis = performance.now() - startedAt;
    runs.push({ labels, outcome, reason, durationMillis, bytes, storedBytes: details?.storedBytes, warnings });
  };
  return {
    succeed: (bytes, details) => end('success', undefined, bytes, details),
    fail: (reason) => end('failure', recorded(reason), undefined, undefined),
    partial: (reason, bytes, details) => end('partial', recorded(reason), bytes, details),
    warn: (reason) => {
      if (!ended) warnings.push(recorded(reason));
    },
    // Phases are gauges of the run in progress, which the double does not keep.
    phase: noop,
    expectBytes: noop,
  };
}

function matches(labels: ResolvedLabels, filter: ScopeLabels): boolean {
  return (
    (filter.component === undefined || filter.component === labels.component) &&
    (filter.implementation === undefined || filter.implementation === labels.implementation) &&
    (filter.operation === undefined || filter.operation === labels.operation)
  );
}
