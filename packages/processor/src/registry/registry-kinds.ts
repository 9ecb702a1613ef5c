import type { SeriesHandle } from '../record/series-handle.js';
import { FamilyRegistry } from './family-registry.js';

/**
 * The default kind: a handle's numbers wait for the next flush, so a record costs a few nanoseconds; only the
 * first numbers of a series, and its first after a whole collection without an add, go to the instruments at once ({@link open}).
 */
class BufferedRegistry extends FamilyRegistry {
  protected accept(handle: SeriesHandle): void {
    this.open(handle);
    this.enqueue(handle);
  }

  /**
   * Adds a series' numbers to the instruments at once at its first record, and at the first record after it has
   * had no add through a whole collection, leaving it queued for the records that follow. The SDK starts a
   * point at the series' first add in a reader's interval (or at the reader's previous collection, when the
   * series was in it), and a collection takes its time before it drains what is pending: left to that drain, such
   * a point would start after its end, and a series' start would be its first flush rather than its first record.
   * A series with an add since the collection before the latest has one in every reader's interval already
   * before this record, or was in every reader's previous collection. So a series recorded on steadily is added
   * at its flushes only; the others cost one add per instrument when they start or resume.
   */
  private open(handle: SeriesHandle): void {
    const instruments = this.instruments;
    if (instruments === undefined) return;
    if (handle.addedIn !== -1 && handle.addedIn >= this.collections - 1) return;
    try {
      this.startSeries(handle);
      handle.addTo(instruments);
      handle.addedIn = this.collections;
    } catch (error) {
      this.diagnostics.flushFailed(error);
    }
    handle.queued = true;
  }
}

/**
 * The unthrottled kind (`flushIntervalMillis: 0`): every record goes to the instruments at once, which costs one
 * OpenTelemetry call per instrument. Recording never throws: what an instrument refuses, or what arrives before
 * there are instruments, is queued for the next flush and reported through `diag`.
 */
class DirectRegistry extends FamilyRegistry {
  protected accept(handle: SeriesHandle): void {
    const instruments = this.instruments;
    if (instruments === undefined) {
      this.enqueue(handle);
      return;
    }
    try {
      this.startSeries(handle);
      handle.addTo(instruments);
      handle.addedIn = this.collections;
    } catch (error) {
      this.enqueue(handle);
      this.diagnostics.flushFailed(error);
    }
  }
}

/** A concrete registry class: what {@link registryKind} returns. */
export type RegistryKind = new (...args: ConstructorParameters<typeof FamilyRegistry>) => FamilyRegistry;

/** The kind of registry for a flush interval: direct for 0, buffered otherwise. */
export function registryKind(flushIntervalMillis: number): RegistryKind {
  return flushIntervalMillis === 0 ? DirectRegistry : BufferedRegistry;
}
