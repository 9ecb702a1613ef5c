import { createHash, randomFillSync } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Component, createBackupStats, Implementation, Operation, type Stats } from 'backupstats';
import type { BenchConfig } from './config.js';
import { createDirectOtelStats } from './direct-otel-stats.js';
import { createOtelSetup, type OtelSetup } from './otel.js';
import { elapsedMs, type Summary, spreadPercent, summarize } from './sample.js';
import { createStages, type StageStats } from './stages.js';

/** The four ways the pipeline is run, in the order each round runs them. */
export const PIPELINE_MODES = [
  'unmetered',
  'direct OTel',
  'backupstats throttled',
  'backupstats unthrottled',
] as const;
export type PipelineMode = (typeof PIPELINE_MODES)[number];

/** One mode at one chunk size: wall time over the rounds and its overhead over the unmetered pipeline. */
export interface PipelineRow {
  readonly chunkBytes: number;
  readonly mode: PipelineMode;
  readonly totalBytes: number;
  readonly wallMs: Summary;
  /** (max - min) / median of the wall times, percent. */
  readonly spreadPercent: number;
  /** Median of the per-round ratios (this mode's time / the same round's unmetered time) minus 1, percent. */
  readonly overheadPercent: number;
  /** Lowest and highest per-round overhead, percent. */
  readonly overheadMinPercent: number;
  readonly overheadMaxPercent: number;
  readonly throughputMiBs: number;
}

/** Results of the pipeline benchmark. */
export interface PipelineResult {
  readonly rounds: number;
  readonly totalBytes: number;
  readonly rows: readonly PipelineRow[];
}

const MiB = 1024 * 1024;
const BYTES_METRIC = 'backup.bytes';

const STAGE_LABELS = {
  source: { component: Component.BackupEngine, implementation: Implementation.Builtin, operation: Operation.SourceRead },
  transform: { component: Component.BackupEngine, implementation: Implementation.Builtin, operation: Operation.CompressorWrite },
  destination: { component: Component.BackupStorage, implementation: Implementation.File, operation: Operation.DestinationWrite },
} as const;

/** Scopes the three stage handles from one root handle, as an application would once per backup. */
function stageStats(root: Stats): StageStats {
  return {
    source: root.scope(STAGE_LABELS.source),
    transform: root.scope(STAGE_LABELS.transform),
    destination: root.scope(STAGE_LABELS.destination),
  };
}

/** What one mode sets up before a run and checks after it. */
interface ModeRun {
  readonly stats: StageStats | undefined;
  /** Ends the run's instrumentation (inside the timed section: a real job flushes before it exits). */
  finish(): Promise<void>;
  /** Bytes the OpenTelemetry pipeline received, or undefined when nothing is metered. */
  exportedBytes(): Promise<number | undefined>;
  close(): Promise<void>;
}

function setUp(mode: PipelineMode): ModeRun {
  if (mode === 'unmetered') {
    return { stats: undefined, finish: async () => {}, exportedBytes: async () => undefined, close: async () => {} };
  }
  const otel: OtelSetup = createOtelSetup();
  if (mode === 'direct OTel') {
    return {
      stats: stageStats(createDirectOtelStats(otel.provider)),
      finish: async () => {},
      exportedBytes: () => otel.total(BYTES_METRIC),
      close: () => otel.shutdown(),
    };
  }
  const backupStats = createBackupStats({
    meterProvider: otel.provider,
    ...(mode === 'backupstats unthrottled' ? { flushIntervalMillis: 0 } : {}),
  });
  return {
    stats: stageStats(backupStats.backup),
    finish: () => backupStats.shutdown(),
    exportedBytes: () => otel.total(BYTES_METRIC),
    close: () => otel.shutdown(),
  };
}

async function runOnce(mode: PipelineMode, data: Buffer, chunk: number, total: number, expected: string): Promise<number> {
  const run = setUp(mode);
  const stages = createStages(data, chunk, total, run.stats);
  const start = process.hrtime.bigint();
  await pipeline(stages.source, stages.transform, stages.destination);
  await run.finish();
  const ms = elapsedMs(start);
  // Checked after the clock stops: every byte arrived unchanged, and every metered stage counted every byte.
  const digest = stages.digest();
  if (digest !== expected) throw new Error(`pipeline (${mode}, ${chunk} B chunks) changed the data: sha1 ${digest}, expected ${expected}`);
  const exported = await run.exportedBytes();
  if (exported !== undefined && exported !== 3 * total) {
    throw new Error(`pipeline (${mode}, ${chunk} B chunks) exported ${exported} bytes over 3 stages, expected ${3 * total}`);
  }
  await run.close();
  return ms;
}

function expectedDigest(data: Buffer, chunk: number, total: number): string {
  const hash = createHash('sha1');
  let offset = 0;
  for (let sent = 0; sent < total; sent += chunk) {
    const size = Math.min(chunk, total - sent);
    if (offset + size > data.length) offset = 0;
    hash.update(data.subarray(offset, offset + size));
    offset += size;
  }
  return hash.digest('hex');
}

/**
 * Pushes `total` bytes through source → transform → destination (sha1) at each chunk size in each mode, the
 * modes interleaved within every round (A B C D A B C D …) so that drift in the machine's load hits them alike.
 */
export async function runPipeline(config: BenchConfig, log: (line: string) => void): Promise<PipelineResult> {
  const total = (config.pipelineMiB ?? (config.quick ? 8 : 1024)) * MiB;
  const rounds = config.rounds ?? (config.quick ? 1 : 5);
  const chunks = [64 * 1024, 16 * 1024, 4 * 1024];
  const data = randomFillSync(Buffer.allocUnsafe(MiB));

  const rows: PipelineRow[] = [];
  for (const chunk of chunks) {
    const expected = expectedDigest(data, chunk, total);
    // One unmeasured pass per mode, so every mode's code is optimized before the first timed round.
    const warmup = Math.min(total, 64 * MiB);
    const warmupDigest = expectedDigest(data, chunk, warmup);
    for (const mode of PIPELINE_MODES) await runOnce(mode, data, chunk, warmup, warmupDigest);
    const times = new Map<PipelineMode, number[]>(PIPELINE_MODES.map((m) => [m, []]));
    for (let round = 0; round < rounds; round++) {
      const line: string[] = [];
      for (const mode of PIPELINE_MODES) {
        const ms = await runOnce(mode, data, chunk, total, expected);
        times.get(mode)?.push(ms);
        line.push(`${mode} ${ms.toFixed(0)} ms`);
      }
      log(`  pipeline ${chunk / 1024} KiB round ${round + 1}/${rounds}: ${line.join(', ')}`);
    }
    const base = times.get('unmetered') as number[];
    for (const mode of PIPELINE_MODES) {
      const ms = times.get(mode) as number[];
      const overheads = summarize(ms.map((t, i) => (t / (base[i] as number) - 1) * 100));
      const wall = summarize(ms);
      rows.push({
        chunkBytes: chunk,
        mode,
        totalBytes: total,
        wallMs: wall,
        spreadPercent: spreadPercent(wall),
        overheadPercent: overheads.median,
        overheadMinPercent: overheads.min,
        overheadMaxPercent: overheads.max,
        throughputMiBs: total / MiB / (wall.median / 1000),
      });
    }
  }
  return { rounds, totalBytes: total, rows };
}
