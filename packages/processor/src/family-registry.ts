import type { Attributes, Counter, Meter } from '@opentelemetry/api';
import type { Diagnostics } from './diagnostics.js';
import { DirectHandle } from './direct-handle.js';
import { labelKey, mergeLabels, ROOT_LABELS, type ResolvedLabels, type ScopeLabels } from './labels.js';
import type { Family, FamilySpec } from './naming.js';
import { OverflowHandle } from './overflow-handle.js';
import { ScopeHandle } from './scope-handle.js';
import type { Stats } from './stats.js';

/** The attributes of the overflow series, as the OpenTelemetry SDK marks its own. */
const OVERFLOW_ATTRIBUTES: Attributes = Object.freeze({ 'otel.metric.overflow': true });

type Handle = ScopeHandle | DirectHandle;

/**
 * Owns the handles, instruments and pending measurements of one family (backup or restore).
 * Flushing costs one pass over the handles recorded on since the last flush.
 */
export class FamilyRegistry {
  /** Measurements dropped as invalid, for the self-metric. */
  invalidCount = 0;
  private readonly handles = new Map<string, Handle>();
  private readonly dirty: ScopeHandle[] = [];
  private readonly operations: Counter;
  private readonly bytes: Counter;
  private readonly time: Counter;
  private readonly fromMillis: (durationMs: number) => number;
  private overflow: Handle | undefined;
  private closed = false;
  /** The handle with no label set. */
  readonly root: Stats;

  constructor(
    readonly family: Family,
    meter: Meter,
    spec: FamilySpec,
    private readonly maxScopes: number,
    private readonly direct: boolean,
    private readonly diagnostics: Diagnostics,
  ) {
    this.operations = meter.createCounter(spec.operations.name, spec.operations);
    this.bytes = meter.createCounter(spec.bytes.name, spec.bytes);
    this.time = meter.createCounter(spec.time.name, spec.time);
    this.fromMillis = spec.fromMillis;
    this.root = this.scope(ROOT_LABELS, undefined);
  }

  /** Number of memoized handles, for the self-metric. */
  get scopeCount(): number {
    return this.handles.size;
  }

  /** Returns the memoized handle for `given` on top of `parent`, or an overflow handle past the bound. */
  scope(parent: ResolvedLabels, given: ScopeLabels | undefined): Stats {
    const labels = mergeLabels(parent, given);
    const key = labelKey(labels);
    const existing = this.handles.get(key);
    if (existing !== undefined) return existing;
    // One series is kept for overflow: see cardinality.ts for how the bound fits the SDK's own limit.
    if (this.handles.size >= this.maxScopes - 1) {
      this.overflow ??= this.createHandle(labels, OVERFLOW_ATTRIBUTES);
      return new OverflowHandle(this, labels, this.overflow);
    }
    const attributes = Object.freeze({
      component: labels.component,
      implementation: labels.implementation,
      operation: labels.operation,
    });
    const handle = this.createHandle(labels, attributes);
    this.handles.set(key, handle);
    return handle;
  }

  private createHandle(labels: ResolvedLabels, attributes: Attributes): Handle {
    return this.direct ? new DirectHandle(this, labels, attributes) : new ScopeHandle(this, labels, attributes);
  }

  /** Called by a handle on its first measurement since the last flush. */
  markDirty(handle: ScopeHandle): void {
    handle.dirty = true;
    if (this.closed) {
      this.diagnostics.recordedAfterShutdown(this.family);
      return;
    }
    this.dirty.push(handle);
  }

  /** Counts one dropped measurement. */
  reject(): void {
    this.invalidCount += 1;
    this.diagnostics.invalidMeasurement(this.family);
  }

  /** Adds one operation straight to the instruments (direct mode). */
  emitNow(attributes: Attributes, bytes: number, durationMs: number): void {
    if (this.closed) {
      this.diagnostics.recordedAfterShutdown(this.family);
      return;
    }
    this.emit(attributes, 1, bytes, durationMs);
  }

  private emit(attributes: Attributes, count: number, bytes: number, durationMs: number): void {
    this.operations.add(count, attributes);
    if (bytes > 0) this.bytes.add(bytes, attributes);
    this.time.add(this.fromMillis(durationMs), attributes);
  }

  /** Adds every pending measurement to the instruments and resets the handles that held them. */
  flush(): void {
    const dirty = this.dirty;
    let done = 0;
    try {
      for (; done < dirty.length; done++) {
        const handle = dirty[done] as ScopeHandle;
        this.emit(handle.attributes, handle.count, handle.bytes, handle.durationMs);
        handle.count = 0;
        handle.bytes = 0;
        handle.durationMs = 0;
        handle.dirty = false;
      }
    } finally {
      // If an instrument threw, keep the handles not yet flushed for the next attempt.
      if (done === dirty.length) dirty.length = 0;
      else dirty.splice(0, done);
    }
  }

  /** Flushes for the last time; later measurements are ignored. */
  close(): void {
    this.flush();
    this.closed = true;
  }
}
