// @ts-nocheck
import { Component, createBackupStats, createHistogramProducer, Implementation, type Stats } from 'backupstats';
import type { BenchConfig } from '../config.js';
import { createOtelSetup } from '../harness/otel.js';
import { elapsedMs, type Summary, summarize } from '../harness/sample.js';

/** What handing 1,000 series' histograms to a reader costs, next to the counters' flush of the same series. */
export interface HistogramCollectRow {
  readonly series: number;
  readonly aggregation: 'explicit' | 'exponential';
  /** The producer's `collect()`: every series' point built, ms. */
  readonly collectMs: Summary;
  /** `flush()` of the same series, each with one record pending, ms. */
  readonly flushMs: Summary;
  readonly repetitions: number;
}

/**
 * Measures one collection of the latency histograms of 1,000 series (each with 100 recorded durations spread over
 * the buckets), in both aggregations, next to the counters' flush of the same 1,000 series.
 */
export async function runHistogramCollect(config: BenchConfig): Promise<HistogramCollectRow[]> {
  const series = 1000;
  const repetitions = config.quick ? 5 : 100;
  const rows: HistogramCollectRow[] = [];
  for (const aggregation of ['explicit', 'exponential'] as const) {
    const otel = createOtelSetup();
    const producer = createHistogramProducer({ aggregation });
    const stats = createBackupStats({
      meterProvider: otel.provider,
      histogramProducers: [producer],
      maxScopes: 10_000,
    });
    const held: Stats[] = [];
    for (let i = 0; i < series; i++) {
      const handle = stats.backup.scope({
        component: Component.BackupEngine,
        implementation: Implementation.Builtin,
        operation: `Op:${i}`,
      });
      for (let j = 0; j < 100; j++) handle.timedIncrementBytes(4096, 0.01 * 1.1 ** ((i + j) % 120));
      held.push(handle);
    }
    const collectTimes: number[] = [];
    const flushTimes: number[] = [];
    for (let r = 0; r < repetitions + 5; r++) {
      let start = process.hrtime.bigint();
      const collected = await producer.collect();
      const collect = elapsedMs(start);
      if (collected.resourceMetrics.scopeMetrics[0]?.metrics[0]?.dataPoints.length !== series) {
        throw new Error(`histogram-collect: ${aggregation} handed over fewer than ${series} points`);
      }
      for (const handle of held) handle.timedIncrementBytes(4096, 0.25);
      start = process.hrtime.bigint();
      stats.flush();
      const flush = elapsedMs(start);
      // The first five are warm-up.
      if (r < 5) continue;
      collectTimes.push(collect);
      flushTimes.push(flush);
    }
    rows.push({
      series,
      aggregation,
      collectMs: summarize(collectTimes),
      flushMs: summarize(flushTimes),
      repetitions,
    });
    await stats.shutdown();
    await otel.shutdown();
  }
  return rows;
}
