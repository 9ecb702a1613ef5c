import { RunFailure, type RunFailureReason } from '../api/run-failure.js';

/** Every reason, in a fixed order: a failed run's series are indexed by it. */
export const RUN_FAILURE_REASONS: readonly RunFailureReason[] = Object.freeze(Object.values(RunFailure));

/** Where {@link RunFailure.Other} sits in {@link RUN_FAILURE_REASONS}. */
const OTHER_REASON_INDEX = RUN_FAILURE_REASONS.indexOf(RunFailure.Other);

/**
 * The index in {@link RUN_FAILURE_REASONS} of the reason a failure is recorded with: `reason` itself, or
 * {@link RunFailure.Other} for a reason left out or not in the list; `onUnknown` hears of the latter.
 */
export function recordedReasonIndex(reason: unknown, onUnknown?: (reason: unknown) => void): number {
  if (reason === undefined) return OTHER_REASON_INDEX;
  const index = RUN_FAILURE_REASONS.indexOf(reason as RunFailureReason);
  if (index >= 0) return index;
  onUnknown?.(reason);
  return OTHER_REASON_INDEX;
}
