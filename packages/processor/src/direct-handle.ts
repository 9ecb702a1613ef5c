import type { Attributes } from '@opentelemetry/api';
import type { ResolvedLabels, ScopeLabels } from './labels.js';
import { isValidAmount } from './measurement.js';
import type { FamilyRegistry } from './family-registry.js';
import type { Stats } from './stats.js';

/**
 * A handle that adds every measurement to the instruments at once (`flushIntervalMillis: 0`): the
 * unthrottled mode, which costs one OpenTelemetry call per instrument per record.
 */
export class DirectHandle implements Stats {
  constructor(
    readonly registry: FamilyRegistry,
    readonly labels: ResolvedLabels,
    readonly attributes: Attributes,
  ) {}

  scope(labels: ScopeLabels): Stats {
    return this.registry.scope(this.labels, labels);
  }

  timedIncrement(durationMs: number): void {
    if (!isValidAmount(durationMs)) {
      this.registry.reject();
      return;
    }
    this.registry.emitNow(this.attributes, 0, durationMs);
  }

  timedIncrementBytes(bytes: number, durationMs: number): void {
    if (!isValidAmount(bytes) || !isValidAmount(durationMs)) {
      this.registry.reject();
      return;
    }
    this.registry.emitNow(this.attributes, bytes, durationMs);
  }
}
