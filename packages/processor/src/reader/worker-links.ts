import type { WorkerLink, WorkerLinkOptions } from '../api/link-types.js';
import type { FamilyRegistry } from '../family/family-registry.js';
import { markClosed } from '../link/place-claim.js';
import { createLink, disabledLink, placeRegion, workerLinkOptions } from '../link/worker-link.js';
import { PlaceReader } from './place-reader.js';

/**
 * The links one stats instance made and the readers of their places: every flush of the stats (its timer, every
 * collection, `flush()`, `shutdown()`) and every collection of its histograms reads them first. The main thread
 * keeps every place until the stats shut down, so a worker that ended still counts at the next flush.
 */
export class WorkerLinks {
  private readonly readers: PlaceReader[] = [];
  /** Every link's control words, to mark them closed at shutdown. */
  private readonly controls: { control: Int32Array; places: number }[] = [];
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
    if (link.control !== undefined) this.controls.push({ control: new Int32Array(link.control), places: workers });
    for (let place = 0; place < link.places.length; place++) {
      this.readers.push(new PlaceReader(placeRegion(link, place), this.families));
    }
    return link;
  }

  /** Folds what the workers recorded since the last read into the families' series. */
  read(): void {
    for (const reader of this.readers) reader.read();
  }

  /** Reads one last time; the places are let go (workers still recording write where no one reads). */
  close(): void {
    if (this.closed) return;
    this.read();
    this.closed = true;
    this.readers.length = 0;
    // A worker that connects from now on is told that it records into nothing.
    for (const { control, places } of this.controls) markClosed(control, places);
  }
}
