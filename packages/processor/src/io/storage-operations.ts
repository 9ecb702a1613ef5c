import { Component, Operation } from '../api/labels.js';
import type { Stats } from '../api/stats.js';
import { ERROR_CODES, notAcceptedArgument } from '../base/errors.js';
import { noop } from '../base/noop.js';

/**
 * The handles a storage client's meter records on: `stats` scoped to `BackupStorage` / `implementation` (labels
 * already set on `stats` win), one per operation. Refuses a `stats` whose operation is set: the meter names every
 * operation itself (`requestOperation`, `Destination:Write`, `Source:Read`, …), which would all be recorded under it.
 */
export function storageOperations(
  fn: string,
  stats: Stats,
  implementation: string,
  requestOperation: string,
): (operation: string) => Stats {
  const storage = stats.scope({ component: Component.BackupStorage, implementation });
  const on = (operation: string): Stats => storage.scope({ operation });
  // The first value of a label wins, and the same labels give the same handle: two operations giving one handle
  // means `stats` has its operation set. The null stats (whose record is base's noop) give one for everything.
  if (stats.timedIncrement !== noop && on(requestOperation) === on(Operation.SourceRead)) {
    throw notAcceptedArgument(
      ERROR_CODES.INVALID_ARGUMENT,
      fn,
      'stats',
      stats,
      `a Stats whose operation is unset, such as backupStats.backup or backupStats.backup.scope({ component }): ${fn} sets ${requestOperation}, Destination:Write, Source:Read, … itself`,
      `its operation is set, so every ${implementation} operation would be recorded under that one`,
    );
  }
  return on;
}
