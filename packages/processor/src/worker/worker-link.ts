import { optionsOf } from '../diagnostics/arguments.js';
import { describeValue, notAccepted, showValue } from '../diagnostics/error-messages.js';
import { type IntegerRule, integerText, isIntegerIn } from '../diagnostics/integer-rule.js';
import type { WorkerLink, WorkerLinkOptions } from './link-types.js';
import { CONTROL_WORDS } from './place-claim.js';
import { type RegionLayout, regionLayout } from './region-layout.js';

const WORKERS: IntegerRule = { min: 1, max: 1024, note: 'worker threads recording through the link at once' };
const MAX_SCOPES: IntegerRule = { min: 2, max: 65_536, note: 'per worker and family, the overflow series included' };
const DEFAULT_MAX_SCOPES = 256;
/**
 * Places of a link made without `workers`: a pool shares one link (piscina's default pool is 1.5 × the available
 * parallelism), and a place no worker took costs a page of resident memory, not its size.
 */
export const DEFAULT_WORKERS = 128;

/** The options of `workerLink()` checked, with their defaults. */
export function workerLinkOptions(options: WorkerLinkOptions | undefined): { workers: number; maxScopes: number } {
  const given = optionsOf('workerLink', options, '{ workers: 4 }');
  const { workers = DEFAULT_WORKERS, maxScopes = DEFAULT_MAX_SCOPES } = given;
  if (!isIntegerIn(workers, WORKERS))
    throw notAccepted('workerLink option workers', showValue(workers), integerText(WORKERS));
  if (!isIntegerIn(maxScopes, MAX_SCOPES)) {
    throw notAccepted('workerLink option maxScopes', showValue(maxScopes), integerText(MAX_SCOPES));
  }
  return { workers, maxScopes };
}

/**
 * A new link with `workers` places. The memory is zeroed, and Node takes pages from the system only when they are
 * first written: a place costs what its worker records into, not its whole size.
 */
export function createLink(workers: number, maxScopes: number, boundaries: readonly number[] | undefined): WorkerLink {
  const layout = layoutOf(maxScopes, boundaries);
  return {
    backupstatsWorkerLink: 1,
    control: new SharedArrayBuffer(CONTROL_WORDS(workers) * 4),
    places: Array.from({ length: workers }, () => new SharedArrayBuffer(layout.byteLength)),
    maxScopes,
    histogramBoundaries: boundaries === undefined ? undefined : [...boundaries],
  };
}

/** The link of stats that record nothing: a worker connected through it records nothing either. */
export function disabledLink(): WorkerLink {
  return { backupstatsWorkerLink: 1, control: undefined, places: [], maxScopes: 2, histogramBoundaries: undefined };
}

/** The layout of every place of a link. */
export function layoutOf(maxScopes: number, boundaries: readonly number[] | undefined): RegionLayout {
  return regionLayout(maxScopes, boundaries === undefined ? undefined : boundaries.length + 1);
}

/** Throws unless `value` is a link made by `workerLink()` (as it arrives, cloned, in a worker). */
export function requireLink(value: unknown): asserts value is WorkerLink {
  const link = value as Partial<WorkerLink> | null | undefined;
  const boundaries = link?.histogramBoundaries;
  if (
    typeof link === 'object' &&
    link !== null &&
    link.backupstatsWorkerLink === 1 &&
    (link.control === undefined || link.control instanceof SharedArrayBuffer) &&
    Array.isArray(link.places) &&
    link.places.every((place) => place instanceof SharedArrayBuffer) &&
    isIntegerIn(link.maxScopes, MAX_SCOPES) &&
    (boundaries === undefined || (Array.isArray(boundaries) && boundaries.every((b) => typeof b === 'number'))) &&
    (link.control === undefined ||
      link.places.every((place) => place.byteLength === layoutOf(link.maxScopes as number, boundaries).byteLength))
  ) {
    return;
  }
  throw notAccepted(
    'connectBackupStats link',
    describeValue(value),
    'the value stats.workerLink() returned on the main thread, passed in workerData or postMessage',
  );
}
