// @ts-nocheck
import { type Attributes, ValueType } from '@opentelemetry/api';
import { Component, createBackupStats, Implementation, type Stats } from 'backupstats';
import type { BenchConfig } from '../config.js';
import { createOtelSetup } from '../harness/otel.js';
import { elapsedMs, type Summary, summarize } from '../harness/sample.js';
import { type HistogramCollectRow, runHistogramCollect } from './histogram-collect.js';

/** Flush time for one number of dirty handles, next to the time of the SDK calls that flush makes. */
export interface FlushRow {
  readonly dirtyHandles: number;
  /** `BackupStats.flush()` with this many handles recorded on since the last flush, ms. */
  readonly flushMs: Summary;
  /** The same `Counter.add` calls (3 per handle, same attributes, same values) made directly, ms. */
  readonly sdkCallsMs: Summary;
  /** Median of the per-repetition ratios flush / SDK calls. */
  readonly ratio: number;
  readonly repetitions: number;
}

/** Results of the flush-cost benchmark. */
export interface FlushResult {
  readonly rows: readonly FlushRow[];
  /** A collection of the latency histograms of 1,000 series, next to their counters' flush. */
  readonly histograms: readonly HistogramCollectRow[];
}

/** Must match the library's default 'otel' naming, so both sides feed identically named instruments. */
const NAMES = { operations: 'backup.operations', bytes: 'backup.bytes', time: 'backup.time' } as const;

function operationName(i: number): string {
  return `Op:${i}`;
}

/**
 * Measures `flush()` with 10, 100 and 1000 dirty handles against the calls it makes into the SDK: each dirty
 * handle costs three `Counter.add` calls, so flush should cost those calls and little more. Both sides feed
 * their own SDK MeterProvider holding the same series; the repetitions interleave the two.
 */
export async function runFlushCost(config: BenchConfig): Promise<FlushResult> {
  const repetitions = config.quick ? 10 : 300;
  const rows: FlushRow[] = [];
  for (const handles of [10, 100, 1000]) {
    const libraryOtel = createOtelSetup();
    const stats = createBackupStats({ meterProvider: libraryOtel.provider, maxScopes: 10_000 });
    const held: Stats[] = [];
    for (let i = 0; i < handles; i++) {
      held.push(
        stats.backup.scope({
          component: Component.BackupEngine,
          implementation: Implementation.Builtin,
          operation: operationName(i),
        }),
      );
    }

    const directOtel = createOtelSetup();
    const meter = directOtel.provider.getMeter('bench-flush');
    const operations = meter.createCounter(NAMES.operations, { unit: '{operation}', valueType: ValueType.INT });
    const bytes = meter.createCounter(NAMES.bytes, { unit: 'By', valueType: ValueType.INT });
    const time = meter.createCounter(NAMES.time, { unit: 's', valueType: ValueType.DOUBLE });
    const attributes: Attributes[] = [];
    for (let i = 0; i < handles; i++) {
      attributes.push(
        Object.freeze({
          component: Component.BackupEngine,
          implementation: Implementation.Builtin,
          operation: operationName(i),
        }),
      );
    }

    // Each repetition records once on every handle (untimed), then times the flush; the direct side adds the
    // values one record on each handle leaves pending: 1 operation, its bytes, its duration in seconds.
    const recordBytes = 65_536;
    const recordMs = 0.25;
    const flushOnce = (): number => {
      for (const handle of held) handle.timedIncrementBytes(recordBytes, recordMs);
      const start = process.hrtime.bigint();
      stats.flush();
      return elapsedMs(start);
    };
    const directOnce = (): number => {
      const start = process.hrtime.bigint();
      for (const a of attributes) {
        operations.add(1, a);
        bytes.add(recordBytes, a);
        time.add(recordMs / 1000, a);
      }
      return elapsedMs(start);
    };

    const warmups = config.quick ? 2 : 30;
    for (let i = 0; i < warmups; i++) {
      flushOnce();
      directOnce();
    }
    const flushTimes: number[] = [];
    const directTimes: number[] = [];
    const ratios: number[] = [];
    for (let i = 0; i < repetitions; i++) {
      // Alternate which side goes first, so neither always runs on a cache the other just warmed.
      const [f, d] = i % 2 === 0 ? [flushOnce(), directOnce()] : ((dd) => [flushOnce(), dd])(directOnce());
      flushTimes.push(f);
      directTimes.push(d);
      ratios.push(f / d);
    }

    // Both providers must hold the same totals, or the comparison compared different work.
    const [libraryOps, directOps] = [
      await libraryOtel.total(NAMES.operations),
      await directOtel.total(NAMES.operations),
    ];
    if (libraryOps !== directOps) {
      throw new Error(
        `flush-cost (${handles} handles): the library exported ${libraryOps} operations, the direct calls ${directOps}`,
      );
    }
    rows.push({
      dirtyHandles: handles,
      flushMs: summarize(flushTimes),
      sdkCallsMs: summarize(directTimes),
      ratio: summarize(ratios).median,
      repetitions,
    });
    await stats.shutdown();
    await Promise.all([libraryOtel.shutdown(), directOtel.shutdown()]);
  }
  return { rows, histograms: await runHistogramCollect(config) };
}
