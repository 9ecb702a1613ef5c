import type { SeriesHandle } from '../record/series-handle.js';
import { FamilyRegistry } from './family-registry.js';

/**
 * The default kind: a handle's numbers wait for the next flush, so a record costs a few nanoseconds; only the
 * first numbers of a series since the latest collection go to the instruments at once ({@link FamilyRegistry.open}).
 */
class BufferedRegistry extends FamilyRegistry {
  protected accept(handle: SeriesHandle): void {
    this.open(handle);
    this.enqueue(handle);
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
