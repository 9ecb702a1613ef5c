import type { WorkerLink, WorkerLinkOptions } from '../api/link-types.js';
import { optionsOf } from '../base/arguments.js';
import { describeValue, ERROR_CODES, notAccepted, showValue } from '../base/errors.js';
import { type IntegerRule, integerText, isIntegerIn } from '../base/integer-rule.js';
import { boundaryProblem } from '../histogram/histogram-options.js';
import { CONTROL_WORDS } from './place-claim.js';
import { type Region, type RegionLayout, regionLayout } from './region-layout.js';

/** What a {@link WorkerLink} holds: the shared memory and what both threads need to lay it out alike. */
export interface LinkData extends WorkerLink {
  /** The places' states and liveness words; none for a link of stats that record nothing. */
  readonly control: SharedArrayBuffer | undefined;
  /**
   * The places' memory, one after the other, each {@link RegionLayout.byteLength} bytes; none for a link of stats that
   * record nothing. One buffer, not one per place: the allocator writes a header at the start of each buffer, so a
   * buffer per place cost a page of resident memory for every place no worker took.
   */
  readonly memory: SharedArrayBuffer | undefined;
  /** Worker places: how many workers may record through the link at once. */
  readonly places: number;
  /** Label combinations per family a worker keeps, its overflow series included. */
  readonly maxScopes: number;
  /** The explicit boundaries of the stats' histograms, in seconds; none when the stats keep no histogram. */
  readonly histogramBoundaries: readonly number[] | undefined;
}

const WORKERS: IntegerRule = { min: 1, max: 1024, note: 'worker threads recording through the link at once' };
const MAX_SCOPES: IntegerRule = { min: 2, max: 65_536, note: 'per worker and family, the overflow series included' };
const DEFAULT_MAX_SCOPES = 256;
/**
 * Places of a link made without `workers`: a pool shares one link (piscina's default pool is 1.5 × the available
 * parallelism), and a place no worker took costs address space, not resident memory.
 */
export const DEFAULT_WORKERS = 128;

/** The options of `workerLink()` checked, with their defaults. */
export function workerLinkOptions(options: WorkerLinkOptions | undefined): { workers: number; maxScopes: number } {
  const given = optionsOf('workerLink', options, '{ workers: 4 }', ['workers', 'maxScopes']);
  const { workers = DEFAULT_WORKERS, maxScopes = DEFAULT_MAX_SCOPES } = given;
  if (!isIntegerIn(workers, WORKERS))
    throw notAccepted(
      ERROR_CODES.INVALID_OPTION,
      'workerLink option workers',
      showValue(workers),
      integerText(WORKERS),
    );
  if (!isIntegerIn(maxScopes, MAX_SCOPES)) {
    throw notAccepted(
      ERROR_CODES.INVALID_OPTION,
      'workerLink option maxScopes',
      showValue(maxScopes),
      integerText(MAX_SCOPES),
    );
  }
  return { workers, maxScopes };
}

/**
 * A new link with `workers` places. The memory is zeroed, and the system gives its pages only when they are first
 * written: a place costs what its worker records into, and a place no worker took costs nothing resident.
 *
 * @throws TypeError when the system refuses the link's memory (its size is `workers` times a place's).
 */
export function createLink(workers: number, maxScopes: number, boundaries: readonly number[] | undefined): LinkData {
  const byteLength = workers * layoutOf(maxScopes, boundaries).byteLength;
  let memory: SharedArrayBuffer;
  try {
    memory = new SharedArrayBuffer(byteLength);
  } catch (error) {
    throw notAccepted(
      ERROR_CODES.INVALID_OPTION,
      'workerLink options',
      `{ workers: ${workers}, maxScopes: ${maxScopes} }`,
      'fewer workers or a smaller maxScopes: a place holds maxScopes slots per family, of 56 bytes without ' +
        'histograms or (268 + explicit boundaries) × 8 bytes with them, and 256 bytes of labels per slot',
      `${byteLength} bytes of shared memory, which the system refused: ${(error as Error).message}`,
    );
  }
  return {
    backupstatsWorkerLink: 1,
    control: new SharedArrayBuffer(CONTROL_WORDS(workers) * 4),
    memory,
    places: workers,
    maxScopes,
    histogramBoundaries: boundaries === undefined ? undefined : [...boundaries],
  };
}

/** The link of stats that record nothing: a worker connected through it records nothing either. */
export function disabledLink(): LinkData {
  return {
    backupstatsWorkerLink: 1,
    control: undefined,
    memory: undefined,
    places: 0,
    maxScopes: 2,
    histogramBoundaries: undefined,
  };
}

/** The layout of every place of a link. */
export function layoutOf(maxScopes: number, boundaries: readonly number[] | undefined): RegionLayout {
  return regionLayout(maxScopes, boundaries === undefined ? undefined : boundaries.length + 1);
}

/** The views of one place of `link`: the worker builds its own place's, the main thread every place's, once. */
export function placeRegion(link: LinkData, place: number): Region {
  const buffer = link.memory as SharedArrayBuffer;
  const layout = layoutOf(link.maxScopes, link.histogramBoundaries);
  const { byteLength } = layout;
  // A place's size is a multiple of 8 (its label heap follows its Float64 cells), so every offset fits the views.
  const offset = place * byteLength;
  return {
    layout,
    int32: new Int32Array(buffer, offset, byteLength / 4),
    numbers: new Float64Array(buffer, offset, byteLength / 8),
    bytes: new Uint8Array(buffer, offset, byteLength),
  };
}

/**
 * Throws unless `value` is a link made by `workerLink()` (as it arrives, cloned, in a worker), checked whole: a
 * forged or damaged link whose parts disagree would make the worker search its buckets the wrong way for ever or
 * index outside its buffers.
 */
export function requireLink(value: unknown): asserts value is LinkData {
  const problem = linkProblem(value);
  if (problem === undefined) return;
  throw notAccepted(
    ERROR_CODES.INVALID_ARGUMENT,
    'connectBackupStats link',
    describeValue(value),
    'the value stats.workerLink() returned on the main thread, passed in workerData or postMessage',
    problem,
  );
}

/** What is wrong with a link, or undefined when its parts agree. */
function linkProblem(value: unknown): string | undefined {
  const link = value as Partial<LinkData> | null | undefined;
  if (typeof link !== 'object' || link === null || link.backupstatsWorkerLink !== 1) return 'not a link';
  const { control, memory, places, maxScopes, histogramBoundaries: boundaries } = link;
  if (!isIntegerIn(maxScopes, MAX_SCOPES)) return 'its maxScopes is not one workerLink() gives';
  const boundariesProblem = boundaries === undefined ? undefined : boundaryProblem(boundaries);
  if (boundariesProblem !== undefined) return `its histogram boundaries: ${boundariesProblem}`;
  if (control === undefined) {
    return places === 0 && memory === undefined ? undefined : 'it has places but no control buffer';
  }
  if (!(control instanceof SharedArrayBuffer)) return 'its control buffer is not a SharedArrayBuffer';
  if (!(memory instanceof SharedArrayBuffer)) return "its places' memory is not a SharedArrayBuffer";
  if (!isIntegerIn(places, WORKERS)) return 'its number of places is not one workerLink() gives';
  if (control.byteLength !== CONTROL_WORDS(places) * 4) return `its control buffer does not fit its ${places} place(s)`;
  if (memory.byteLength !== places * layoutOf(maxScopes, boundaries).byteLength) {
    return `its memory does not fit its ${places} place(s) of its maxScopes and boundaries`;
  }
  return undefined;
}
