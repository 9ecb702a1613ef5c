import type { FamilyRegistry } from '../registry/family-registry.js';
import type { WorkerLink, WorkerLinkOptions } from './link-types.js';
import { placeEverTaken } from './place-claim.js';
import { PlaceReader } from './place-reader.js';
import type { RegionLayout } from './region-layout.js';
import { createLink, disabledLink, layoutOf, workerLinkOptions } from './worker-link.js';

/**
 * One link's places and their readers. A reader is made when a worker first takes its place: a link has room for
 * many workers by default, and a place no worker took costs no resident memory, which a reader (its views, its
 * scratch copy) and its reads would.
 */
interface LinkPlaces {
  readonly control: Int32Array;
  readonly places: readonly SharedArrayBuffer[];
  readonly layout: RegionLayout;
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
    private readonly families: readonly [FamilyRegistry, FamilyRegistry],
    /** The explicit boundaries of the stats' histograms, or none when they keep no histogram. */
    private readonly boundaries: readonly number[] | undefined,
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
    this.links.push({
      control: new Int32Array(link.control as SharedArrayBuffer),
      places: link.places,
      layout: layoutOf(maxScopes, this.boundaries),
      readers: [],
    });
    return link;
  }

  /** Folds what the workers recorded since the last read into the families' series. */
  read(): void {
    for (const link of this.links) {
      for (let place = 0; place < link.places.length; place++) {
        if (link.readers[place] === undefined && placeEverTaken(link.control, place)) {
          link.readers[place] = this.readerOf(link, place);
        }
      }
      for (const reader of link.readers) reader?.read();
    }
  }

  /** Reads one last time; the places are let go (workers still recording write where no one reads). */
  close(): void {
    if (this.closed) return;
    this.read();
    this.closed = true;
    this.links.length = 0;
  }

  private readerOf(link: LinkPlaces, place: number): PlaceReader {
    const buffer = link.places[place] as SharedArrayBuffer;
    const region = {
      layout: link.layout,
      int32: new Int32Array(buffer),
      numbers: new Float64Array(buffer),
      bytes: new Uint8Array(buffer),
    };
    return new PlaceReader(region, this.families);
  }
}
