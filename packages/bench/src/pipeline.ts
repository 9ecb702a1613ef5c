import { createHash, randomFillSync } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Component, createBackupStats, Implementation, noopStats, Operation, type Stats } from 'backupstats';
import type { BenchConfig } from './config.js';
import { createDirectOtelStats } from './direct-otel-stats.js';
import { createOtelSetup, type OtelSetup } from './otel.js';
import { elapsedMs, type Summary, spreadPercent, summarize } from './sample.js';
import { createStages, type StageStats } from './stages.js';

/**
 * The ways the pipeline is run, in the order even rounds run them (odd rounds run them backwards). `wrappers on
 * noopStats` runs the same metered wrappers, with their clock reads, recording nothing: it separates what timing
 * each chunk costs (which the caller asks for) from what recording it into backupstats adds. The cheap modes
 * sit next to `unmetered`, so each ratio compares runs close in time.
 */
export const PIPELINE_MODES = [
  'unmetered',
  'backupstats throttled',
  'wrappers on noopStats',
  'direct OTel',
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
  /** Process CPU time (user + system) over the rounds. */
  readonly cpuMs: Summary;
  /** Median of the per-round CPU-time ratios minus 1, percent: a cross-check less sensitive to descheduling. */
  readonly cpuOverheadPercent: number;
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
  if (mode === 'wrappers on noopStats') {
    return { stats: stageStats(noopStats), finish: async () => {}, exportedBytes: async () => undefined, close: async () => {} };
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

/** Wall and CPU time of one run, ms. */
interface Timing {
  readonly wallMs: number;
  readonly cpuMs: number;
}

async function runOnce(mode: PipelineMode, data: Buffer, chunk: number, total: number, expected: string): Promise<Timing> {
  // Collect the previous run's garbage now, not inside this run's timing (the bench runs with --expose-gc).
  (globalThis as { gc?: () => void }).gc?.();
  const run = setUp(mode);
  const stages = createStages(data, chunk, total, run.stats);
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  await pipeline(stages.source, stages.transform, stages.destination);
  await run.finish();
  const wallMs = elapsedMs(start);
  const cpu = process.cpuUsage(cpuStart);
  // Checked after the clock stops: every byte arrived unchanged, and every metered stage counted every byte.
  const digest = stages.digest();
  if (digest !== expected) throw new Error(`pipeline (${mode}, ${chunk} B chunks) changed the data: sha1 ${digest}, expected ${expected}`);
  const exported = await run.exportedBytes();
  if (exported !== undefined && exported !== 3 * total) {
    throw new Error(`pipeline (${mode}, ${chunk} B chunks) exported ${exported} bytes over 3 stages, expected ${3 * total}`);
  }
  await run.close();
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000 };
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
 * modes interleaved within every round (A B C D E E D C B A …) so that drift in the machine's load hits them alike.
 */
export async function runPipeline(config: BenchConfig, log: (line: string) => void): Promise<PipelineResult> {
  const total = (config.pipelineMiB ?? (config.quick ? 8 : 1024)) * MiB;
  const rounds = config.rounds ?? (config.quick ? 1 : 8);
  const chunks = [64 * 1024, 16 * 1024, 4 * 1024];
  const data = randomFillSync(Buffer.allocUnsafe(MiB));

  const rows: PipelineRow[] = [];
  for (const chunk of chunks) {
    const expected = expectedDigest(data, chunk, total);
    // One unmeasured pass per mode, so every mode's code is optimized before the first timed round.
    const warmup = Math.min(total, 64 * MiB);
    const warmupDigest = expectedDigest(data, chunk, warmup);
    for (const mode of PIPELINE_MODES) await runOnce(mode, data, chunk, warmup, warmupDigest);
    const times = new Map<PipelineMode, Timing[]>(PIPELINE_MODES.map((m) => [m, []]));
    for (let round = 0; round < rounds; round++) {
      const line: string[] = [];
      // A B C D E, then E D C B A: a load that drifts during a round weighs on every mode alike.
      const order = round % 2 === 0 ? PIPELINE_MODES : [...PIPELINE_MODES].reverse();
      for (const mode of order) {
        const timing = await runOnce(mode, data, chunk, total, expected);
        times.get(mode)?.push(timing);
        line.push(`${mode} ${timing.wallMs.toFixed(0)} ms`);
      }
      log(`  pipeline ${chunk / 1024} KiB round ${round + 1}/${rounds}: ${line.join(', ')}`);
    }
    const base = times.get('unmetered') as Timing[];
    for (const mode of PIPELINE_MODES) {
      const runs = times.get(mode) as Timing[];
      const overheads = summarize(runs.map((t, i) => (t.wallMs / (base[i] as Timing).wallMs - 1) * 100));
      const cpuOverheads = summarize(runs.map((t, i) => (t.cpuMs / (base[i] as Timing).cpuMs - 1) * 100));
      const wall = summarize(runs.map((t) => t.wallMs));
      rows.push({
        chunkBytes: chunk,
        mode,
        totalBytes: total,
        wallMs: wall,
        spreadPercent: spreadPercent(wall),
        overheadPercent: overheads.median,
        overheadMinPercent: overheads.min,
        overheadMaxPercent: overheads.max,
        cpuMs: summarize(runs.map((t) => t.cpuMs)),
        cpuOverheadPercent: cpuOverheads.median,
        throughputMiBs: total / MiB / (wall.median / 1000),
      });
    }
  }
  return { rounds, totalBytes: total, rows };
}
