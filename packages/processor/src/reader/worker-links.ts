import type { WorkerLink, WorkerLinkOptions } from '../api/link-types.js';
import type { FamilyRegistry } from '../family/family-registry.js';
import { markClosed, placeEverTaken } from '../link/place-claim.js';
import { createLink, disabledLink, type LinkData, placeRegion, workerLinkOptions } from '../link/worker-link.js';
import { type PlaceProblems, PlaceReader } from './place-reader.js';

/**
 * One link's places and their readers. A reader is made when a worker first takes its place: a link has room for
 * many workers by default, and a place no worker took costs no resident memory, which a reader (its views, its
 * scratch copy) and its reads would.
 */
interface LinkPlaces {
  readonly link: LinkData;
  readonly control: Int32Array;
  readonly readers: (PlaceReader | undefined)[];
}

/**
 * The links one stats instance made and the readers of their places: every flush of the stats (its timer, every
 * collection, `flush()`, `shutdown()`) and every collection of its histograms reads them first. The main thread
 * keeps every place until the stats shut down, so a worker that ended still counts at the next flush.
 */
export class WorkerLinks {
  private readonly links: LinkPlaces[] = [];
  private closed = false;

  constructor(
    private readonly families: readonly FamilyRegistry[],
    /** The explicit boundaries of the stats' histograms, or none when they keep no histogram. */
    private readonly boundaries: readonly number[] | undefined,
    /** Who hears of a place whose memory holds what no worker writes. */
    private readonly problems: PlaceProblems,
  ) {}

  /**
   * A new link with the places `options` asks for. After shutdown, a link that records nothing.
   *
   * @throws TypeError when an option is invalid.
   */
  create(options: WorkerLinkOptions | undefined): WorkerLink {
    const { workers, maxScopes } = workerLinkOptions(options);
    if (this.closed) return disabledLink();
    const link = createLink(workers, maxScopes, this.boundaries);
    this.links.push({ link, control: new Int32Array(link.control as SharedArrayBuffer), readers: [] });
    return link;
  }

  /** Folds what the workers recorded since the last read into the families' series. */
  read(): void {
    for (const { link, control, readers } of this.links) {
      // Stryker disable next-line EqualityOperator: the word past the last place is the closed mark, never taken
      for (let place = 0; place < link.places; place++) {
        if (readers[place] === undefined && placeEverTaken(control, place)) {
          readers[place] = new PlaceReader(placeRegion(link, place), this.families, this.problems);
        }
      }
      // Stryker disable next-line OptionalChaining: workers take the lowest free place, so readers has no hole
      for (const reader of readers) reader?.read();
    }
  }

  /** Reads one last time; the places are let go (workers still recording write where no one reads). */
  close(): void {
    // Stryker disable next-line ConditionalExpression: a second close reads nothing new and sets what is set
    if (this.closed) return;
    this.read();
    this.closed = true;
    // A worker that connects from now on learns that it records into nothing.
    for (const { link, control } of this.links) markClosed(control, link.places);
    this.links.length = 0;
  }
}
