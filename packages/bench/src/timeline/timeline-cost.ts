import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Component, createBackupStats, createHistogramProducer, Implementation, type Stats } from 'backupstats';
import { renderReport, reportData, writeReport } from 'backupstats/report';
// The timeline's hooks alone, from the source (tsx runs it): a flush always runs them, so their cost can only be
// told apart from the rest of a flush by running them by themselves on the same handles.
import { FamilyTimeline } from '../../../processor/src/timeline/family-timeline.js';
import type { BenchConfig } from '../config.js';
import { createOtelSetup } from '../harness/otel.js';
import { elapsedMs, type Summary, summarize } from '../harness/sample.js';

/** One number of series moving at every flush. */
export interface TimelineFlushRow {
  readonly series: number;
  /** `flush()` with every series recorded on since the last one, the timeline included, ms. */
  readonly flushMs: Summary;
  /** The timeline's part of it: its hooks around the drain on the same handles, ms. */
  readonly timelineMs: Summary;
  readonly repetitions: number;
}

/** The report of 2,000 series with histograms, 200 flushes and 10 runs. */
export interface ReportWriteRow {
  readonly series: number;
  readonly bytes: number;
  /** `reportData()`, `renderReport()`, and `writeReport()` (both and the atomic write), ms. */
  readonly dataMs: Summary;
  readonly renderMs: Summary;
  readonly writeMs: Summary;
  readonly repetitions: number;
}

export interface TimelineResult {
  readonly flush: readonly TimelineFlushRow[];
  readonly report: ReportWriteRow;
}

function scopes(stats: Stats, count: number): Stats[] {
  return Array.from({ length: count }, (_, i) =>
    stats.scope({ component: Component.BackupEngine, implementation: Implementation.Builtin, operation: `Op:${i}` }),
  );
}

/** The timeline's cost per flush for 100 and 2,000 moving series, and the report's size and time for 2,000. */
export async function runTimelineCost(config: BenchConfig): Promise<TimelineResult> {
  const repetitions = config.quick ? 10 : 300;
  const flush: TimelineFlushRow[] = [];
  // --quick: a tenth of the series (the same code at every size; its figures mean nothing).
  for (const count of config.quick ? [10, 200] : [100, 2000]) {
    const otel = createOtelSetup();
    const stats = createBackupStats({ meterProvider: otel.provider, maxScopes: 10_000, flushIntervalMillis: 2 ** 30 });
    const handles = scopes(stats.backup, count);
    const alone = new FamilyTimeline(
      'backup',
      (each) => handles.forEach(each as never),
      () => {},
      true,
    );
    const record = (): void => {
      for (const handle of handles) handle.timedIncrementBytes(65_536, 0.25);
    };
    const flushOnce = (): number => {
      record();
      const start = process.hrtime.bigint();
      stats.flush();
      return elapsedMs(start);
    };
    const hooksOnce = (): number => {
      record();
      const start = process.hrtime.bigint();
      alone.before(handles as never);
      alone.after();
      const ms = elapsedMs(start);
      stats.flush();
      return ms;
    };
    // Past the first halvings, so that both run on timelines in their steady state.
    for (let i = 0; i < (config.quick ? 40 : 100); i++) {
      flushOnce();
      hooksOnce();
    }
    const flushes: number[] = [];
    const hooks: number[] = [];
    for (let i = 0; i < repetitions; i++) {
      if (i % 2 === 0) {
        flushes.push(flushOnce());
        hooks.push(hooksOnce());
      } else {
        hooks.push(hooksOnce());
        flushes.push(flushOnce());
      }
    }
    flush.push({ series: count, flushMs: summarize(flushes), timelineMs: summarize(hooks), repetitions });
    await stats.shutdown();
    await otel.shutdown();
  }
  return { flush, report: await reportWrite(config) };
}

async function reportWrite(config: BenchConfig): Promise<ReportWriteRow> {
  const series = config.quick ? 200 : 2000;
  const otel = createOtelSetup();
  const stats = createBackupStats({
    meterProvider: otel.provider,
    maxScopes: series + 1,
    flushIntervalMillis: 2 ** 30,
    histogramProducers: [createHistogramProducer()],
  });
  const handles = scopes(stats.backup, series - 1);
  const run = stats.backup.scope({ operation: 'Backup' });
  for (let flushIndex = 0; flushIndex < 200; flushIndex++) {
    const backup = flushIndex % 20 === 0 ? run.startRun() : undefined;
    for (const [i, handle] of handles.entries()) handle.timedIncrementBytes(4096 + i, 0.01 + (i % 97) / 10);
    stats.flush();
    backup?.succeed(4096 * series);
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-report-'));
  const path = join(dir, 'report.html');
  const repetitions = config.quick ? 2 : 20;
  const data: number[] = [];
  const render: number[] = [];
  const write: number[] = [];
  try {
    for (let i = 0; i < repetitions; i++) {
      let start = process.hrtime.bigint();
      const built = reportData(stats);
      data.push(elapsedMs(start));
      start = process.hrtime.bigint();
      renderReport(built);
      render.push(elapsedMs(start));
      start = process.hrtime.bigint();
      await writeReport(stats, path);
      write.push(elapsedMs(start));
    }
    return {
      series,
      bytes: statSync(path).size,
      dataMs: summarize(data),
      renderMs: summarize(render),
      writeMs: summarize(write),
      repetitions,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await stats.shutdown();
    await otel.shutdown();
  }
}
