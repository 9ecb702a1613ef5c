import type { Attributes, Counter, Meter } from '@opentelemetry/api';
import type { Diagnostics } from './diagnostics.js';
import { DirectHandle } from './direct-handle.js';
import { labelKey, mergeLabels, ROOT_LABELS, type ResolvedLabels, type ScopeLabels } from './labels.js';
import type { Family, FamilySpec } from './naming.js';
import { OverflowHandle } from './overflow-handle.js';
import type { Pending } from './pending.js';
import { ScopeHandle } from './scope-handle.js';
import type { Stats } from './stats.js';

/** The attributes of the overflow series, as the OpenTelemetry SDK marks its own. */
const OVERFLOW_ATTRIBUTES: Attributes = Object.freeze({ 'otel.metric.overflow': true });

type Handle = ScopeHandle | DirectHandle;

interface Instruments {
  readonly operations: Counter;
  readonly bytes: Counter;
  readonly time: Counter;
}

/**
 * Owns the handles, instruments and pending measurements of one family (backup or restore).
 * Flushing costs one pass over the handles recorded on since the last flush.
 */
export class FamilyRegistry {
  /** Measurements dropped as invalid, for the self-metric. */
  invalidCount = 0;
  private readonly handles = new Map<string, Handle>();
  private readonly dirty: Pending[] = [];
  /** Created by {@link bind}; until then measurements stay pending. */
  private instruments: Instruments | undefined;
  private readonly fromMillis: (durationMs: number) => number;
  private overflow: Handle | undefined;
  private closed = false;
  /** The handle with no label set. */
  readonly root: Stats;

  constructor(
    readonly family: Family,
    private readonly spec: FamilySpec,
    private readonly maxScopes: number,
    private readonly direct: boolean,
    private readonly diagnostics: Diagnostics,
  ) {
    this.fromMillis = spec.fromMillis;
    this.root = this.scope(ROOT_LABELS, undefined);
  }

  /** Creates the instruments on `meter`: from now on flushes add the pending measurements to them. */
  bind(meter: Meter): void {
    const { operations, bytes, time } = this.spec;
    this.instruments = {
      operations: meter.createCounter(operations.name, operations),
      bytes: meter.createCounter(bytes.name, bytes),
      time: meter.createCounter(time.name, time),
    };
  }

  /** Operations recorded and not yet added to the instruments. */
  get pendingOperations(): number {
    let count = 0;
    for (const handle of this.dirty) count += handle.count;
    return count;
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
  markDirty(handle: Pending): void {
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

  /**
   * Adds an unthrottled handle's numbers to the instruments now. Recording never throws: what an instrument
   * refuses stays pending for the next flush, and the failure is reported through `diag`.
   */
  flushNow(handle: Pending): void {
    if (this.closed) {
      handle.count = 0;
      handle.bytes = 0;
      handle.durationMs = 0;
      this.diagnostics.recordedAfterShutdown(this.family);
      return;
    }
    if (this.instruments === undefined) {
      if (!handle.dirty) this.markDirty(handle);
      return;
    }
    try {
      this.drain(this.instruments, handle);
    } catch (error) {
      if (!handle.dirty) this.markDirty(handle);
      this.diagnostics.flushFailed(error);
    }
  }

  /**
   * Adds one handle's pending numbers to the instruments. Each number is zeroed as soon as its instrument has
   * taken it, so that when an instrument throws, the retry adds only what is still pending: never twice.
   */
  private drain(instruments: Instruments, handle: Pending): void {
    const attributes = handle.attributes;
    if (handle.count > 0) {
      instruments.operations.add(handle.count, attributes);
      handle.count = 0;
    }
    // The bytes counter is an integer one, which truncates every add: whole bytes go out and the fraction
    // waits for the next flush, so the exported total is the whole part of the sum whatever the timing.
    const wholeBytes = Math.trunc(handle.bytes);
    if (wholeBytes > 0) {
      instruments.bytes.add(wholeBytes, attributes);
      handle.bytes -= wholeBytes;
    }
    // Added even when zero, so that every series with operations has a time series too.
    instruments.time.add(this.fromMillis(handle.durationMs), attributes);
    handle.durationMs = 0;
  }

  /**
   * Adds every pending measurement to the instruments. A handle whose instrument throws keeps what is left for
   * the next flush; the others are flushed all the same, then the first error is thrown.
   */
  flush(): void {
    const instruments = this.instruments;
    // Never into a no-op: with no instruments yet, everything stays pending.
    if (instruments === undefined) return;
    const dirty = this.dirty;
    let kept = 0;
    let failure: { error: unknown } | undefined;
    for (let i = 0; i < dirty.length; i++) {
      const handle = dirty[i] as Pending;
      try {
        this.drain(instruments, handle);
        handle.dirty = false;
      } catch (error) {
        failure ??= { error };
        dirty[kept++] = handle;
      }
    }
    dirty.length = kept;
    if (failure !== undefined) throw failure.error;
  }

  /** Flushes for the last time; later measurements are ignored. Throws what {@link flush} throws, closed all the same. */
  close(): void {
    try {
      this.flush();
    } catch (error) {
      this.diagnostics.lostAtShutdown(this.family, this.dirty.length, error);
      throw error;
    } finally {
      this.closed = true;
    }
  }
}
