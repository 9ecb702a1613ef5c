import type { WorkerLink } from '../api/link-types.js';
import type { Stats } from '../api/stats.js';
import { ERROR_CODES, notAccepted } from '../base/errors.js';
import { noop } from '../base/noop.js';
import { Diagnostics } from '../diagnostics/diagnostics.js';
import { ExplicitBuckets } from '../histogram/explicit-buckets.js';
import { noopStats } from '../instance/null-stats.js';
import { claimPlace, isClosed } from '../link/place-claim.js';
import { placeRegion, requireLink } from '../link/worker-link.js';
import { FAMILIES } from '../naming/naming-types.js';
import { closedLinkConnected } from './closed-link.js';
import { SharedFamily } from './shared-family.js';

/** The stats of a worker thread, recording into the shared memory of a {@link WorkerLink}. */
export interface WorkerBackupStats {
  /** Measurements of backups: `scope()`, `timedIncrement`, `timedIncrementBytes`, as on the main thread. */
  readonly backup: Stats;
  /** Measurements of restores. */
  readonly restore: Stats;
  /** Measurements of verifications. */
  readonly verify: Stats;
  /** Measurements of prunes. */
  readonly prune: Stats;
  /**
   * Gives the worker's place back, so that another worker may take it (what was recorded stays, and the main
   * thread reads it). Records made afterwards go nowhere. Called by itself when the worker's thread exits
   * (its end, `process.exit()`, an uncaught exception); calling it again does nothing.
   */
  close(): void;
}

/**
 * Connects a worker thread to the stats that made `link` (`stats.workerLink()` on the main thread): records go into
 * shared memory that the main thread reads at its flushes (its timer, every collection, `flush()`, `shutdown()`),
 * with no message per record or per scope. The handles record as the main thread's do, at a few nanoseconds, and
 * the stream meters of `backupstats` take them. `startRun()` records nothing in a worker (runs are the main
 * thread's).
 *
 * Connected after the stats that made the link shut down, it records nothing and warns once (on stderr when the
 * thread has no diag logger: the main thread's `OTEL_LOG_LEVEL` reaches no worker).
 *
 * @throws TypeError when `link` is not a link or its parts do not agree, or when all its places are taken by live
 *   workers.
 */
export function connectBackupStats(link: WorkerLink): WorkerBackupStats {
  requireLink(link);
  const nothing = Object.freeze({
    backup: noopStats,
    restore: noopStats,
    verify: noopStats,
    prune: noopStats,
    close: noop,
  });
  if (link.control === undefined) return nothing;
  const control = new Int32Array(link.control);
  if (isClosed(control, link.places)) {
    closedLinkConnected();
    return nothing;
  }
  const claim = claimPlace(control, link.places);
  if (claim === undefined) {
    throw notAccepted(
      ERROR_CODES.LINK_FULL,
      'connectBackupStats link',
      `a link whose ${link.places} place(s) are all taken by live workers`,
      'a link with a free place: stats.workerLink({ workers: N }) for N workers recording at once, or a link per worker',
    );
  }
  const region = placeRegion(link, claim.place);
  const boundaries = link.histogramBoundaries;
  const buckets = boundaries === undefined ? undefined : new ExplicitBuckets(boundaries);
  const diagnostics = new Diagnostics();
  const families = FAMILIES.map((family, i) => new SharedFamily(region, i, family, diagnostics, buckets));
  const [backup, restore, verify, prune] = families as [SharedFamily, SharedFamily, SharedFamily, SharedFamily];
  let closed = false;
  const close = (): void => {
    // Stryker disable next-line ConditionalExpression: a second close() repeats the first, which changes nothing
    if (closed) return;
    // Stryker disable next-line BooleanLiteral: a second close() repeats the first, which changes nothing
    closed = true;
    forgetAtExit(close);
    for (const family of families) family.detach();
    claim.release();
  };
  closeAtExit(close);
  return Object.freeze({ backup: backup.root, restore: restore.root, verify: verify.root, prune: prune.root, close });
}

/**
 * The open connections of this thread, closed when it exits, through one 'exit' listener for all of them: a
 * listener each would make Node warn of a leak (MaxListenersExceededWarning) at the eleventh connection.
 */
const openConnections = new Set<() => void>();

function closeAll(): void {
  for (const close of [...openConnections]) close();
}

function closeAtExit(close: () => void): void {
  if (openConnections.size === 0) process.on('exit', closeAll);
  openConnections.add(close);
}

function forgetAtExit(close: () => void): void {
  if (openConnections.delete(close) && openConnections.size === 0) process.off('exit', closeAll);
}
