import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNode } from '@backupstats/testkit/node-process';
import type { BenchConfig } from '../config.js';
import { type Summary, spreadPercent, summarize } from '../harness/sample.js';
import { type CpuPin, pinToOneCpu } from './cpu-pin.js';
import { PIPELINE_MODES, type PipelineMode } from './pipeline-modes.js';
import type { Timing } from './pipeline-run.js';
import type { DestinationKind } from './stages.js';

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
  /** Median of the per-round ratios to the same round's `wrappers on noopStats` run minus 1, percent: what recording adds to timing. */
  readonly overNoopPercent: number;
  /** CPU time (user + system) of the mode's process over the rounds. */
  readonly cpuMs: Summary;
  /** Median of the per-round CPU-time ratios minus 1, percent: a cross-check less sensitive to descheduling. */
  readonly cpuOverheadPercent: number;
  readonly throughputMiBs: number;
}

/** At one chunk size: what the default mode's meters cost per chunk, and how close its timing estimate came. */
export interface TimingBudgetRow {
  readonly chunkBytes: number;
  /**
   * Median over the rounds of (default CPU time − unmetered CPU time) / chunks, ns: the three stages' metering,
   * measured with a destination that only counts its bytes.
   */
  readonly meteringNsPerChunk: number;
  /** The same in clock reads' worth ({@link PipelineResult.clockReadNs} each). */
  readonly meteringClockReads: number;
  /**
   * The same difference for `unmetered again`, ns per chunk: two runs of the same unmetered code, so what the
   * figure above reads when nothing differs (its noise on this machine in this run).
   */
  readonly noiseNsPerChunk: number;
  /** Median over the rounds of the time the three stages' meters recorded, s: default, and exact timing. */
  readonly defaultSeconds: number;
  readonly exactSeconds: number;
  /** defaultSeconds / exactSeconds − 1, percent. */
  readonly estimateOffPercent: number;
}

/** One mode's cost of starting new pipelines, or of a file tree: its median and its overhead over unmetered. */
export interface StartRow {
  readonly mode: PipelineMode;
  /** Median over the rounds, ms: per new pipeline (fresh), or for the whole tree. */
  readonly wallMs: number;
  /** Median of the per-round ratios to the same round's unmetered figure, minus 1, percent. */
  readonly overheadPercent: number;
  readonly overheadMinPercent: number;
  readonly overheadMaxPercent: number;
}

/** Results of the pipeline benchmark. */
export interface PipelineResult {
  /** New pipelines, each after a collection of the previous ones: what one costs to start and run. */
  readonly fresh: { readonly pipelines: number; readonly bytes: number; readonly rows: readonly StartRow[] };
  /** A file tree read one pipeline per file. */
  readonly tree: { readonly files: number; readonly fileBytes: number; readonly rows: readonly StartRow[] };
  /** What one `performance.now()` costs here, ns: the cheapest, over the rounds, of batches of a million reads. */
  readonly clockReadNs: number;
  readonly budget: readonly TimingBudgetRow[];
  readonly rounds: number;
  /** The CPU every mode process was pinned to, or undefined when they ran unpinned. */
  readonly pinnedCpu: number | undefined;
  readonly totalBytes: number;
  readonly rows: readonly PipelineRow[];
}

const MiB = 1024 * 1024;
const CHILD = fileURLToPath(new URL('./pipeline-child.ts', import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));

type Reply =
  | { readonly ready: true }
  | { readonly ok: true; readonly timing: Timing }
  | { readonly ok: true; readonly clockReadNs: number }
  | { readonly ok: false; readonly error: string };

/** A mode of a long-lived process; runs are requested one at a time. */
interface ModeProcess {
  run(chunk: number, total: number, destination?: DestinationKind): Promise<Timing>;
  /** What one `performance.now()` costs in this process, ns, read in batches of `reads` (measureClockRead). */
  clockRead(reads: number): Promise<number>;
  /** The median ms of `count` new pipelines of `bytes` each (pipeline-run.ts, runFresh). */
  runFresh(chunk: number, bytes: number, count: number): Promise<number>;
  /** The `count` files of `dir`, one pipeline each (pipeline-run.ts, runTree), ms. */
  runTree(dir: string, count: number): Promise<number>;
  close(): void;
}

/** Starts one process running `modes` (pipeline-child.ts) and answers with each mode's side of it. */
async function startModes(modes: readonly PipelineMode[], pin: CpuPin): Promise<Map<PipelineMode, ModeProcess>> {
  const name = modes.join('", "');
  const { child } = startNode(['--expose-gc', '--import', 'tsx', CHILD, ...modes], {
    cwd: PACKAGE_DIR,
    stdout: 'inherit',
    stderr: 'inherit',
    ipc: true,
    wrapper: pin.wrapper,
  });
  let pending: { resolve: (reply: Reply) => void; reject: (error: Error) => void } | undefined;
  const next = (): Promise<Reply> =>
    new Promise((resolve, reject) => {
      pending = { resolve, reject };
    });
  child.on('message', (reply: Reply) => {
    const waiting = pending;
    pending = undefined;
    waiting?.resolve(reply);
  });
  child.on('exit', (code, signal) => {
    const waiting = pending;
    pending = undefined;
    waiting?.reject(new Error(`pipeline process for "${name}" exited with ${code ?? signal}`));
  });
  const ready = await next();
  if (!('ready' in ready)) throw new Error(`pipeline process for "${name}" did not start`);
  const modeProcess = (mode: PipelineMode): ModeProcess => {
    const answer = async (request: object) => {
      const reply = next();
      child.send({ mode, ...request });
      const answered = await reply;
      if ('ready' in answered) throw new Error(`pipeline process for "${mode}" answered out of turn`);
      if (!answered.ok) throw new Error(`pipeline (${mode}) failed: ${answered.error}`);
      return answered;
    };
    const ask = async (request: object): Promise<Timing> => {
      const answered = await answer(request);
      if (!('timing' in answered)) throw new Error(`pipeline process for "${mode}" answered out of turn`);
      return answered.timing;
    };
    return {
      run: (chunk, total, destination) => ask({ chunk, total, destination }),
      clockRead: async (reads) => {
        const answered = await answer({ chunk: 0, total: 0, clock: reads });
        if (!('clockReadNs' in answered)) throw new Error(`pipeline process for "${mode}" answered out of turn`);
        return answered.clockReadNs;
      },
      runFresh: async (chunk, bytes, count) => (await ask({ chunk, total: bytes, fresh: count })).wallMs,
      runTree: async (dir, count) => (await ask({ chunk: 0, total: 0, tree: { dir, count } })).wallMs,
      close() {
        child.removeAllListeners('exit');
        child.kill();
      },
    };
  };
  return new Map(modes.map((mode) => [mode, modeProcess(mode)]));
}

/**
 * Pushes `total` bytes through source → transform → destination (sha1) at each chunk size in each mode, each
 * mode in a process of its own, every one pinned to the same CPU where `taskset` exists ({@link pinToOneCpu}), the
 * modes interleaved within every round and their order rotated from round to round (A B C D E, B C D E A, …), so
 * that the CPU, drift in the machine's load and the place in a round weigh on them alike.
 */
export async function runPipeline(config: BenchConfig, log: (line: string) => void): Promise<PipelineResult> {
  const total = (config.pipelineMiB ?? (config.quick ? 2 : 1024)) * MiB;
  const rounds = config.rounds ?? (config.quick ? 1 : 2 * PIPELINE_MODES.length);
  const chunks = [64 * 1024, 16 * 1024, 4 * 1024];
  const clockReadBatch = config.quick ? 10_000 : 1_000_000;
  const processes = new Map<PipelineMode, ModeProcess>();
  const pin = pinToOneCpu();
  log(
    pin.cpu === undefined
      ? '  pipeline: mode processes unpinned (no taskset)'
      : `  pipeline: every mode process pinned to CPU ${pin.cpu}`,
  );
  try {
    // Every mode in a process of its own (pipeline-child.ts says why); a quick run's figures mean nothing, so it
    // starts one process for all of them.
    const groups = config.quick ? [PIPELINE_MODES] : PIPELINE_MODES.map((mode) => [mode]);
    for (const modes of groups) for (const [mode, p] of await startModes(modes, pin)) processes.set(mode, p);
    const proc = (mode: PipelineMode): ModeProcess => processes.get(mode) as ModeProcess;

    const rows: PipelineRow[] = [];
    const timesByChunk = new Map<number, Map<PipelineMode, Timing[]>>();
    for (const chunk of chunks) {
      // One unmeasured pass per mode, so every mode's code is optimized before the first timed round; a quick
      // run's figures mean nothing, so it skips the pass.
      if (!config.quick) for (const mode of PIPELINE_MODES) await proc(mode).run(chunk, Math.min(total, 64 * MiB));
      const times = new Map<PipelineMode, Timing[]>(PIPELINE_MODES.map((m) => [m, []]));
      for (let round = 0; round < rounds; round++) {
        const line: string[] = [];
        // Rotated each round (A B C D E, B C D E A, …): every mode takes every place in a round equally often,
        // because a run's place measurably weighs on it (about 3 % at 64 KiB here, whichever mode holds it).
        const shift = round % PIPELINE_MODES.length;
        const order = [...PIPELINE_MODES.slice(shift), ...PIPELINE_MODES.slice(0, shift)];
        for (const mode of order) {
          const timing = await proc(mode).run(chunk, total);
          times.get(mode)?.push(timing);
          line.push(`${mode} ${timing.wallMs.toFixed(0)} ms`);
        }
        log(`  pipeline ${chunk / 1024} KiB round ${round + 1}/${rounds}: ${line.join(', ')}`);
      }
      timesByChunk.set(chunk, times);
      const base = times.get('unmetered') as Timing[];
      const noop = times.get('wrappers on noopStats') as Timing[];
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
          overNoopPercent: summarize(runs.map((t, i) => (t.wallMs / (noop[i] as Timing).wallMs - 1) * 100)).median,
          cpuMs: summarize(runs.map((t) => t.cpuMs)),
          cpuOverheadPercent: cpuOverheads.median,
          throughputMiBs: total / MiB / (wall.median / 1000),
        });
      }
    }
    // The metering cost per chunk, on the same stages into a destination that only counts: the sha1 of the rows
    // above is most of their CPU time (5 to 6 µs of a 4 KiB chunk's 8 to 10), which a difference of two whole runs
    // then resolves poorly. The clock is timed in the unmetered process each round, pinned as the modes are; the
    // cheapest round is its cost, the others having been slowed by whatever else ran.
    const clockReads: number[] = [];
    const counted = new Map<number, Map<PipelineMode, Timing[]>>();
    for (const chunk of chunks) {
      if (!config.quick)
        for (const mode of BUDGET_MODES) await proc(mode).run(chunk, Math.min(total, 64 * MiB), 'count');
      const times = new Map<PipelineMode, Timing[]>(BUDGET_MODES.map((m) => [m, []]));
      for (let round = 0; round < rounds; round++) {
        clockReads.push(await proc('unmetered').clockRead(clockReadBatch));
        const shift = round % BUDGET_MODES.length;
        const order = [...BUDGET_MODES.slice(shift), ...BUDGET_MODES.slice(0, shift)];
        const line: string[] = [];
        for (const mode of order) {
          const timing = await proc(mode).run(chunk, total, 'count');
          times.get(mode)?.push(timing);
          line.push(`${mode} ${timing.cpuMs.toFixed(0)} ms CPU`);
        }
        log(
          `  pipeline metering ${chunk / 1024} KiB, counting destination, round ${round + 1}/${rounds}: ${line.join(', ')}`,
        );
      }
      counted.set(chunk, times);
    }
    const clockReadNs = Math.min(...clockReads);
    const budget = chunks.map((chunk) =>
      budgetRow(
        chunk,
        total,
        clockReadNs,
        counted.get(chunk) as Map<PipelineMode, Timing[]>,
        timesByChunk.get(chunk) as Map<PipelineMode, Timing[]>,
      ),
    );
    const startRounds = config.quick ? 1 : 5;
    const freshCount = config.quick ? 1 : 20;
    const freshBytes = MiB;
    const fresh = await interleaved(config, START_MODES, startRounds, log, 'new pipelines', (mode) =>
      proc(mode).runFresh(64 * 1024, freshBytes, freshCount),
    );
    const files = config.quick ? 50 : 1000;
    const fileBytes = 64 * 1024;
    const dir = mkdtempSync(join(tmpdir(), 'backupstats-bench-tree-'));
    try {
      const content = sampleBytes(fileBytes);
      for (let i = 0; i < files; i++) writeFileSync(join(dir, String(i)), content);
      const tree = await interleaved(config, START_MODES, startRounds, log, 'file tree', (mode) =>
        proc(mode).runTree(dir, files),
      );
      return {
        clockReadNs,
        budget,
        rounds,
        pinnedCpu: pin.cpu,
        totalBytes: total,
        rows,
        fresh: { pipelines: freshCount, bytes: freshBytes, rows: fresh },
        tree: { files, fileBytes, rows: tree },
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    for (const p of processes.values()) p.close();
  }
}

/**
 * At one chunk size: the default mode's metering cost per chunk, from the runs into a counting destination
 * (`counted`), and its timing estimate against exact timing, from the rows' runs (`times`).
 */
function budgetRow(
  chunk: number,
  total: number,
  clockReadNs: number,
  counted: ReadonlyMap<PipelineMode, Timing[]>,
  times: ReadonlyMap<PipelineMode, Timing[]>,
): TimingBudgetRow {
  const chunks = total / chunk;
  const base = counted.get('unmetered') as Timing[];
  const perChunk = (runs: readonly Timing[]): number =>
    summarize(runs.map((t, i) => ((t.cpuMs - (base[i] as Timing).cpuMs) * 1e6) / chunks)).median;
  const meteringNsPerChunk = perChunk(counted.get('backupstats default') as Timing[]);
  const defaultSeconds = summarize(
    (times.get('backupstats default') as Timing[]).map((t) => t.recordedSeconds ?? 0),
  ).median;
  const exactSeconds = summarize(
    (times.get('backupstats exact timing') as Timing[]).map((t) => t.recordedSeconds ?? 0),
  ).median;
  return {
    chunkBytes: chunk,
    meteringNsPerChunk,
    meteringClockReads: meteringNsPerChunk / clockReadNs,
    noiseNsPerChunk: perChunk(counted.get('unmetered again') as Timing[]),
    defaultSeconds,
    exactSeconds,
    estimateOffPercent: (defaultSeconds / exactSeconds - 1) * 100,
  };
}

/** The modes of the metering cost per chunk: the default against unmetered, with the A/A control. */
const BUDGET_MODES: readonly PipelineMode[] = ['unmetered', 'backupstats default', 'unmetered again'];

/** The modes of the start-up and file-tree rows: the default against unmetered, with the A/A control. */
const START_MODES: readonly PipelineMode[] = [
  'unmetered',
  'backupstats default',
  'wrappers on noopStats',
  'unmetered again',
];

/** Runs `measure` for every mode in `rounds` rounds, the order rotated, and sums each mode up against unmetered. */
async function interleaved(
  config: BenchConfig,
  modes: readonly PipelineMode[],
  rounds: number,
  log: (line: string) => void,
  what: string,
  measure: (mode: PipelineMode) => Promise<number>,
): Promise<StartRow[]> {
  const figures = new Map<PipelineMode, number[]>(modes.map((m) => [m, []]));
  // One unmeasured pass, as for the chunk sizes (which a quick run skips likewise).
  if (!config.quick) for (const mode of modes) await measure(mode);
  for (let round = 0; round < rounds; round++) {
    const shift = round % modes.length;
    const order = [...modes.slice(shift), ...modes.slice(0, shift)];
    const line: string[] = [];
    for (const mode of order) {
      const ms = await measure(mode);
      figures.get(mode)?.push(ms);
      line.push(`${mode} ${ms.toFixed(1)} ms`);
    }
    log(`  pipeline ${what} round ${round + 1}/${rounds}: ${line.join(', ')}`);
  }
  const base = figures.get('unmetered') as number[];
  return modes.map((mode) => {
    const values = figures.get(mode) as number[];
    const overheads = summarize(values.map((v, i) => (v / (base[i] as number) - 1) * 100));
    return {
      mode,
      wallMs: summarize(values).median,
      overheadPercent: overheads.median,
      overheadMinPercent: overheads.min,
      overheadMaxPercent: overheads.max,
    };
  });
}

/** `size` pseudo-random bytes (a file of the tree: what it holds does not matter to a pass-through). */
function sampleBytes(size: number): Buffer {
  const bytes = Buffer.allocUnsafe(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 2654435761) >>> 24;
  return bytes;
}
