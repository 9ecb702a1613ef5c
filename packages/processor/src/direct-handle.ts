import type { Attributes } from '@opentelemetry/api';
import type { FamilyRegistry } from './family-registry.js';
import type { ResolvedLabels, ScopeLabels } from './labels.js';
import { isAmount, MAX_PENDING } from './measurement.js';
import type { Pending } from './pending.js';
import type { Stats } from './stats.js';

/**
 * A handle that adds every measurement to the instruments at once (`flushIntervalMillis: 0`): the
 * unthrottled mode, which costs one OpenTelemetry call per instrument per record. What an instrument refuses
 * stays pending for the next flush, as on a throttled handle.
 */
export class DirectHandle implements Stats, Pending {
  count = 0;
  bytes = 0;
  durationMs = 0;
  dirty = false;

  constructor(
    readonly registry: FamilyRegistry,
    readonly labels: ResolvedLabels,
    readonly attributes: Attributes,
  ) {}

  scope(labels: ScopeLabels): Stats {
    return this.registry.scope(this.labels, labels);
  }

  timedIncrement(durationMs: number): void {
    if (isAmount(durationMs)) {
      const pendingMs = this.durationMs + durationMs;
      if (pendingMs <= MAX_PENDING) {
        this.count += 1;
        this.durationMs = pendingMs;
        this.registry.flushNow(this);
        return;
      }
    }
    this.registry.reject();
  }

  timedIncrementBytes(bytes: number, durationMs: number): void {
    if (isAmount(bytes) && isAmount(durationMs)) {
      const pendingBytes = this.bytes + bytes;
      const pendingMs = this.durationMs + durationMs;
      if (pendingBytes <= MAX_PENDING && pendingMs <= MAX_PENDING) {
        this.count += 1;
        this.bytes = pendingBytes;
        this.durationMs = pendingMs;
        this.registry.flushNow(this);
        return;
      }
    }
    this.registry.reject();
  }
}
