import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { Transform, type TransformCallback, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  Component,
  createBackupStats,
  Implementation,
  type MeterOptions,
  meterReadable,
  meterTransform,
  meterWritable,
  Operation,
  type Stats,
} from 'backupstats';
import { noopStats } from 'backupstats/testing';
import { createOtelSetup, type OtelSetup } from '../harness/otel.js';
import { elapsedMs } from '../harness/sample.js';
import { createDirectOtelStats } from '../record/direct-otel-stats.js';
import type { PipelineMode } from './pipeline-modes.js';
import { createStages, type DestinationKind, type StageStats, type Stages } from './stages.js';

const BYTES_METRIC = 'backup.bytes';
const TIME_METRIC = 'backup.time';

const STAGE_LABELS = {
  source: {
    component: Component.BackupEngine,
    implementation: Implementation.Builtin,
    operation: Operation.SourceRead,
  },
  transform: {
    component: Component.BackupEngine,
    implementation: Implementation.Builtin,
    operation: Operation.CompressorWrite,
  },
  destination: {
    component: Component.BackupStorage,
    implementation: Implementation.File,
    operation: Operation.DestinationWrite,
  },
} as const;

/** Wall and CPU time of one run, ms, and the time its meters recorded over the three stages, s. */
export interface Timing {
  readonly wallMs: number;
  readonly cpuMs: number;
  /** Undefined when nothing is exported (unmetered, noopStats). */
  readonly recordedSeconds: number | undefined;
}

/** The bytes and seconds the OpenTelemetry pipeline has received so far, over every stage. */
interface Exported {
  readonly bytes: number;
  readonly seconds: number;
}

/** Scopes the three stage handles from one root handle, as an application would once per backup. */
function stageStats(root: Stats): StageStats {
  return {
    source: root.scope(STAGE_LABELS.source),
    transform: root.scope(STAGE_LABELS.transform),
    destination: root.scope(STAGE_LABELS.destination),
  };
}

/**
 * One mode's instrumentation, set up once per process as an application sets up backupstats once, and reused
 * by every run: the runs then measure the steady cost per chunk, not the start of a fresh instance each time.
 */
export interface ModeSetup {
  readonly mode: PipelineMode;
  readonly stats: StageStats | undefined;
  /** Options of every stage's meter. */
  readonly meterOptions: MeterOptions;
  /** Ends a run's measurements (inside the timed section: a real job flushes before it exits). */
  finish(): void;
  /** What the OpenTelemetry pipeline has received so far, or undefined when nothing is exported. */
  exported(): Promise<Exported | undefined>;
}

const nothing = async (): Promise<undefined> => undefined;

/** Creates the instrumentation of `mode`. */
export function setUpMode(mode: PipelineMode): ModeSetup {
  const meterOptions: MeterOptions = mode === 'backupstats exact timing' ? { timeOneIn: 1 } : {};
  if (mode === 'unmetered' || mode === 'unmetered again')
    return { mode, stats: undefined, meterOptions, finish: () => {}, exported: nothing };
  if (mode === 'wrappers on noopStats')
    return { mode, stats: stageStats(noopStats), meterOptions, finish: () => {}, exported: nothing };
  const otel: OtelSetup = createOtelSetup();
  const exported = async (): Promise<Exported> => {
    const totals = await otel.totals([BYTES_METRIC, TIME_METRIC]);
    return { bytes: totals[0] as number, seconds: totals[1] as number };
  };
  if (mode === 'direct OTel') {
    return { mode, stats: stageStats(createDirectOtelStats(otel.provider)), meterOptions, finish: () => {}, exported };
  }
  const backupStats = createBackupStats({
    meterProvider: otel.provider,
    ...(mode === 'backupstats unthrottled' ? { flushIntervalMillis: 0 } : {}),
  });
  return {
    mode,
    stats: stageStats(backupStats.backup),
    meterOptions,
    finish: () => backupStats.flush(),
    exported,
  };
}

/** 1 MiB of pseudo-random bytes, the same in every process (xorshift32 from a fixed seed). */
export function sampleData(): Buffer {
  const data = Buffer.allocUnsafe(1024 * 1024);
  let x = 0x9e3779b9;
  for (let i = 0; i < data.length; i += 4) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    data.writeUInt32LE(x >>> 0, i);
  }
  return data;
}

/** The sha1 the destination must see: the same slices the source sends, hashed directly. */
export function expectedDigest(data: Buffer, chunk: number, total: number): string {
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
 * Runs the pipeline once and times it; throws if a byte changed (a sha1 destination, against `expected`) or went
 * missing, or if a metered byte went unexported.
 */
export async function runOnce(
  setup: ModeSetup,
  data: Buffer,
  chunk: number,
  total: number,
  expected: string,
  kind: DestinationKind = 'sha1',
): Promise<Timing> {
  const { mode } = setup;
  const before = await setup.exported();
  // Collect the previous run's garbage now, not inside this run's timing (the process runs with --expose-gc). The
  // previous run's streams stay alive through it: collecting them makes V8 throw away the stream code it
  // optimized for them, and every run would pay its recompilation, a cost per pipeline (measured apart by
  // runFresh) and not per chunk.
  (globalThis as { gc?: () => void }).gc?.();
  const stages = createStages(data, chunk, total, setup.stats, setup.meterOptions, kind);
  kept.stages = stages;
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  await pipeline(stages.source, stages.transform, stages.destination);
  setup.finish();
  const wallMs = elapsedMs(start);
  const cpu = process.cpuUsage(cpuStart);
  // Checked after the clock stops: every byte arrived unchanged, and every metered stage counted every byte.
  if (stages.received() !== total)
    throw new Error(`pipeline (${mode}, ${chunk} B chunks) delivered ${stages.received()} bytes of ${total}`);
  const digest = stages.digest();
  if (kind === 'sha1' && digest !== expected)
    throw new Error(`pipeline (${mode}, ${chunk} B chunks) changed the data: sha1 ${digest}, expected ${expected}`);
  const after = await setup.exported();
  if (before !== undefined && after !== undefined && after.bytes - before.bytes !== 3 * total) {
    throw new Error(
      `pipeline (${mode}, ${chunk} B chunks) exported ${after.bytes - before.bytes} bytes over 3 stages, expected ${3 * total}`,
    );
  }
  const recordedSeconds = before === undefined || after === undefined ? undefined : after.seconds - before.seconds;
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000, recordedSeconds };
}

/** The last steady run's streams, kept from one run to the next (see runOnce). */
const kept: { stages: Stages | undefined } = { stages: undefined };

/**
 * What a new pipeline costs to start, ms: `count` pipelines of `bytes` each in `chunk`-byte chunks, each built after
 * a collection of every earlier one's streams, as in a job that starts a pipeline now and then; the median of their
 * wall times. The steady runs' streams are dropped first, so that nothing keeps their optimized code alive.
 */
export async function runFresh(
  setup: ModeSetup,
  data: Buffer,
  chunk: number,
  bytes: number,
  count: number,
): Promise<number> {
  kept.stages = undefined;
  const wall: number[] = [];
  for (let i = 0; i < count; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    const stages = createStages(data, chunk, bytes, setup.stats, setup.meterOptions);
    const start = process.hrtime.bigint();
    await pipeline(stages.source, stages.transform, stages.destination);
    setup.finish();
    wall.push(elapsedMs(start));
  }
  wall.sort((a, b) => a - b);
  return wall[Math.floor(wall.length / 2)] as number;
}

/**
 * A backup of a file tree: every file of `dir` (`count` files named 0 … count − 1) read through its own pipeline of
 * three stages (the file's read stream, a pass-through transform, a sha1 destination), metered when the mode meters,
 * one file after the other, without forced collections. Returns the wall and CPU time of the whole tree.
 */
export async function runTree(setup: ModeSetup, dir: string, count: number): Promise<Timing> {
  (globalThis as { gc?: () => void }).gc?.();
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    const hash = createHash('sha1');
    const source = createReadStream(join(dir, String(i)));
    const transform = new Transform({ transform: (c: Buffer, _e, done: TransformCallback) => done(null, c) });
    const destination = new Writable({
      write(c: Buffer, _e, done) {
        hash.update(c);
        done();
      },
    });
    const stats = setup.stats;
    if (stats !== undefined) {
      meterReadable(source, stats.source, setup.meterOptions);
      meterTransform(transform, stats.transform, setup.meterOptions);
      meterWritable(destination, stats.destination, setup.meterOptions);
    }
    await pipeline(source, transform, destination);
  }
  setup.finish();
  const wallMs = elapsedMs(start);
  const cpu = process.cpuUsage(cpuStart);
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000, recordedSeconds: undefined };
}

/**
 * What one `performance.now()` costs in this process, ns: the cheapest of five batches of `reads` reads. Measured
 * in a mode's process, on the CPU the modes are pinned to, so that it is the clock the meters read.
 */
export function measureClockRead(reads: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let batch = 0; batch < 5; batch++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < reads; i++) performance.now();
    best = Math.min(best, Number(process.hrtime.bigint() - start) / reads);
  }
  return best;
}
