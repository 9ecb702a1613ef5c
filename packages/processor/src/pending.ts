import type { Attributes } from '@opentelemetry/api';

/**
 * The numbers a handle has recorded and not yet added to the instruments. Both kinds of handle carry them:
 * a throttled handle until the next flush, an unthrottled one only while an instrument fails or before a
 * MeterProvider is there to add them to.
 */
export interface Pending {
  count: number;
  bytes: number;
  durationMs: number;
  /** True while the handle sits in the registry's dirty list (or after shutdown, for good). */
  dirty: boolean;
  readonly attributes: Attributes;
}
