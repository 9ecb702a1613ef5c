import { Operation } from '../api/labels.js';
import type { RunOptions } from '../api/run.js';
import { optionsOf } from '../base/arguments.js';
import { ERROR_CODES, notAccepted, showValue } from '../base/errors.js';

/** What a run with an expected size follows: its size and the operation whose bytes are its progress. */
export interface ExpectedProgress {
  readonly expectedBytes: number;
  readonly operation: string;
}

/**
 * Checks the options of `startRun` (or of `fn`, which passes them on): undefined when the run was given no
 * expected size, so that it follows no progress.
 *
 * @throws TypeError naming the option, the value and what it accepts.
 */
export function expectedProgressOf(fn: string, options: RunOptions | undefined): ExpectedProgress | undefined {
  const given = optionsOf(fn, options, '{ expectedBytes: 1_048_576 }', ['expectedBytes', 'progressOperation']);
  const { expectedBytes, progressOperation } = given;
  if (
    progressOperation !== undefined &&
    (typeof progressOperation !== 'string' || progressOperation.length === 0 || progressOperation.length > 64)
  ) {
    throw notAccepted(
      ERROR_CODES.INVALID_OPTION,
      `${fn} option progressOperation`,
      showValue(progressOperation),
      'an operation such as "Source:Read"',
    );
  }
  if (expectedBytes === undefined) return undefined;
  if (typeof expectedBytes !== 'number' || !(expectedBytes >= 0) || expectedBytes > Number.MAX_SAFE_INTEGER) {
    throw notAccepted(
      ERROR_CODES.INVALID_OPTION,
      `${fn} option expectedBytes`,
      showValue(expectedBytes),
      `a number of bytes from 0 to ${Number.MAX_SAFE_INTEGER}, or nothing`,
    );
  }
  return { expectedBytes, operation: progressOperation ?? Operation.SourceRead };
}
