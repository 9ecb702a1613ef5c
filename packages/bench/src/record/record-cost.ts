import { Component, createBackupStats, createHistogramProducer, Implementation, Operation } from 'backupstats';
import { Bench } from 'tinybench';
import type { BenchConfig } from '../config.js';
import { createOtelSetup } from '../harness/otel.js';
import { pinThisProcess } from '../harness/pin-process.js';
import { createDirectOtelStats } from './direct-otel-stats.js';
import { histogramAnchors } from './histogram-anchors.js';
import { promClientCases } from './prom-client-cases.js';

/** One way of recording a measurement and what one record cost. */
export interface RecordCostRow {
  readonly case: string;
  /** Median over the rounds of each round's median nanoseconds per record. */
  readonly nsPerOp: number;
  /** The fastest and the slowest round's median, ns. */
  readonly minNs: number;
  readonly maxNs: number;
  /** This cost divided by the bare accumulator's. */
  readonly overFloor: number;
  /** Relative margin of error of the mean, percent, as tinybench reports it, in the median round. */
  readonly rmePercent: number;
  /** Direct-OTel cost divided by this cost: how many times cheaper than direct OpenTelemetry. */
  readonly cheaperThanOtel: number;
  readonly samples: number;
}

/** Results of the record-cost benchmark. */
export interface RecordCostResult {
  readonly rows: readonly RecordCostRow[];
  /** Records per tinybench iteration, per case. */
  readonly recordsPerIteration: Readonly<Record<string, number>>;
  /** Rounds run, each timing every case in turn (the order rotated), and the CPU the process was pinned to. */
  readonly rounds: number;
  readonly pinnedCpu: number | undefined;
}

const LABELS = {
  component: Component.BackupEngine,
  implementation: Implementation.Builtin,
  operation: Operation.SourceRead,
} as const;

/** Inputs cycle through this many precomputed values, so the timed loop only reads arrays. */
const INPUTS = 4096;
const MASK = INPUTS - 1;

/** Consumed after the run, so no optimizer can treat the floor's sums as dead. */
let sink = 0;

/** The baseline every ratio is taken against. */
export const DIRECT_OTEL_CASE = 'direct OTel: 3 × Counter.add (same 3 attributes)';
/** The case the record targets (report/targets.ts) are about. */
export const HELD_HANDLE_CASE = 'backupstats held handle, throttled (default 1000 ms flush)';
const UNTHROTTLED_CASE = 'backupstats held handle, unthrottled (flushIntervalMillis 0)';
/** The record with its latency histogram, whose targets report/targets.ts checks. */
export const HISTOGRAM_CASE = 'backupstats held handle, with its latency histogram (a producer attached)';
/** The SDK's own histogram record, the histogram's baseline. */
export const SDK_HISTOGRAM_CASE = 'direct OTel: Histogram.record (same 3 attributes)';
/** The floor every record is compared with. */
export const FLOOR_CASE = 'bare accumulator (floor)';
/** The other JavaScript histograms, for histogram-anchors.ts's rows. */
export const ANCHOR_PREFIXES = ['hdr-histogram-js', '@datadog/sketches-js', 'perf_hooks', 'prom-client Histogram'];
const SCOPE_EACH_TIME_CASE = 'backupstats scope(labels) on every record (handle not held)';

/**
 * Times one `timedIncrementBytes`-equivalent record in each implementation. Each tinybench iteration runs an
 * inner loop of many records and the cost is divided by that count, so the harness's own per-iteration cost
 * (two clock reads and a call) does not swamp an operation of a few nanoseconds.
 */
export async function runRecordCost(config: BenchConfig): Promise<RecordCostResult> {
  const bytes = new Array<number>(INPUTS);
  const durations = new Array<number>(INPUTS);
  for (let i = 0; i < INPUTS; i++) {
    bytes[i] = 1 + Math.floor(Math.random() * 65_536);
    durations[i] = 0.001 + Math.random();
  }

  const throttledOtel = createOtelSetup();
  const throttled = createBackupStats({ meterProvider: throttledOtel.provider });
  const unthrottledOtel = createOtelSetup();
  const unthrottled = createBackupStats({ meterProvider: unthrottledOtel.provider, flushIntervalMillis: 0 });
  const directOtel = createOtelSetup();
  const direct = createDirectOtelStats(directOtel.provider).scope(LABELS);
  const held = throttled.backup.scope(LABELS);
  const histogramOtel = createOtelSetup();
  const withHistograms = createBackupStats({
    meterProvider: histogramOtel.provider,
    histogramProducers: [createHistogramProducer()],
  });
  const heldWithHistogram = withHistograms.backup.scope(LABELS);
  const sdkHistogram = directOtel.provider
    .getMeter('bench')
    .createHistogram('backup.operation.duration', { unit: 's' });
  const heldUnthrottled = unthrottled.backup.scope(LABELS);
  const root = throttled.backup;

  const floor = { count: 0, bytes: 0, durationMillis: 0 };
  const fast = config.quick ? 20_000 : 100_000;
  const slow = config.quick ? 1_000 : 2_000;

  const cases: Array<{ name: string; records: number; fn: (n: number) => void }> = [
    {
      name: FLOOR_CASE,
      records: fast,
      fn: (n) => {
        for (let i = 0; i < n; i++) {
          floor.count += 1;
          floor.bytes += bytes[i & MASK] as number;
          floor.durationMillis += durations[i & MASK] as number;
        }
      },
    },
    // Each case has its own loop, so every call site sees one class of handle, as a metered stream's does.
    {
      name: HELD_HANDLE_CASE,
      records: fast,
      fn: (n) => {
        for (let i = 0; i < n; i++) held.timedIncrementBytes(bytes[i & MASK] as number, durations[i & MASK] as number);
      },
    },
    {
      name: HISTOGRAM_CASE,
      records: fast,
      fn: (n) => {
        for (let i = 0; i < n; i++)
          heldWithHistogram.timedIncrementBytes(bytes[i & MASK] as number, durations[i & MASK] as number);
      },
    },
    {
      name: SDK_HISTOGRAM_CASE,
      records: slow,
      fn: (n) => {
        for (let i = 0; i < n; i++) sdkHistogram.record((durations[i & MASK] as number) / 1000, LABELS);
      },
    },
    {
      name: UNTHROTTLED_CASE,
      records: slow,
      fn: (n) => {
        for (let i = 0; i < n; i++)
          heldUnthrottled.timedIncrementBytes(bytes[i & MASK] as number, durations[i & MASK] as number);
      },
    },
    {
      name: SCOPE_EACH_TIME_CASE,
      records: fast / 10,
      fn: (n) => {
        for (let i = 0; i < n; i++)
          root.scope(LABELS).timedIncrementBytes(bytes[i & MASK] as number, durations[i & MASK] as number);
      },
    },
    {
      name: DIRECT_OTEL_CASE,
      records: slow,
      fn: (n) => {
        for (let i = 0; i < n; i++)
          direct.timedIncrementBytes(bytes[i & MASK] as number, durations[i & MASK] as number);
      },
    },
    ...promClientCases(LABELS, bytes, durations, slow),
    ...(await histogramAnchors(durations, fast, slow)),
  ];

  // Rounds, each timing every case in turn with its order rotated, so that a slow stretch of a shared machine
  // falls on every case alike rather than on the few that tinybench happened to be timing; the process pinned to
  // one CPU where taskset works. A case's cost is the median of its rounds' medians.
  const rounds = config.quick ? 1 : 5;
  const calls = new Map<string, number>(cases.map((c) => [c.name, 0]));
  const measured = new Map<string, Array<{ ns: number; rme: number; samples: number }>>(cases.map((c) => [c.name, []]));
  const pin = pinThisProcess();
  try {
    for (let round = 0; round < rounds; round++) {
      const bench = new Bench({
        time: config.quick ? 1 : 1500 / rounds,
        iterations: config.quick ? 3 : 10,
        warmupTime: config.quick ? 1 : 100,
        warmupIterations: config.quick ? 2 : 5,
      });
      for (let k = 0; k < cases.length; k++) {
        const c = cases[(k + round) % cases.length] as (typeof cases)[number];
        bench.add(c.name, () => {
          calls.set(c.name, (calls.get(c.name) as number) + 1);
          c.fn(c.records);
        });
      }
      await bench.run();
      for (const task of bench.tasks) {
        const result = task.result;
        if (result.state !== 'completed') {
          const error = 'error' in result ? result.error : undefined;
          throw new Error(`record-cost task "${task.name}" ended ${result.state}`, { cause: error });
        }
        const records = cases.find((c) => c.name === task.name)?.records as number;
        measured.get(task.name)?.push({
          ns: (result.latency.p50 * 1e6) / records,
          rme: result.latency.rme,
          samples: result.latency.samplesCount,
        });
      }
    }
  } finally {
    pin.restore();
  }
  sink += floor.count + floor.bytes + floor.durationMillis;
  if (!Number.isFinite(sink)) throw new Error('the floor accumulator lost its sum');

  // Every record must have reached OpenTelemetry: proof that no loop was optimized away and no count was lost.
  const recorded = (name: string): number =>
    (calls.get(name) as number) * ((cases.find((c) => c.name === name)?.records as number) ?? 0);
  throttled.flush();
  const withHistogramsFlushed = async (): Promise<number> => {
    withHistograms.flush();
    return histogramOtel.total('backup.operations');
  };
  const checks: Array<[string, number, number]> = [
    // scope() returns the memoized held handle, so both cases add to the same series.
    [
      HELD_HANDLE_CASE,
      await throttledOtel.total('backup.operations'),
      recorded(HELD_HANDLE_CASE) + recorded(SCOPE_EACH_TIME_CASE),
    ],
    [UNTHROTTLED_CASE, await unthrottledOtel.total('backup.operations'), recorded(UNTHROTTLED_CASE)],
    [HISTOGRAM_CASE, await withHistogramsFlushed(), recorded(HISTOGRAM_CASE)],
    [DIRECT_OTEL_CASE, await directOtel.total('backup.operations'), recorded(DIRECT_OTEL_CASE)],
  ];
  for (const [name, exported, expected] of checks) {
    if (exported !== expected)
      throw new Error(`record-cost: "${name}" exported ${exported} operations, expected ${expected}`);
  }

  const summary = (name: string) => {
    const byNs = [...(measured.get(name) ?? [])].sort((a, b) => a.ns - b.ns);
    const median = byNs[Math.floor(byNs.length / 2)];
    if (median === undefined) throw new Error(`record-cost: no round timed "${name}"`);
    const samples = byNs.reduce((total, r) => total + r.samples, 0);
    return { median, min: byNs[0]?.ns ?? median.ns, max: byNs[byNs.length - 1]?.ns ?? median.ns, samples };
  };
  const otelNs = summary(DIRECT_OTEL_CASE).median.ns;
  const floorNs = summary(FLOOR_CASE).median.ns;
  const rows = cases.map((c) => {
    const { median, min, max, samples } = summary(c.name);
    return {
      case: c.name,
      nsPerOp: median.ns,
      minNs: min,
      maxNs: max,
      overFloor: median.ns / floorNs,
      rmePercent: median.rme,
      cheaperThanOtel: otelNs / median.ns,
      samples,
    };
  });

  await Promise.all([throttled.shutdown(), unthrottled.shutdown(), withHistograms.shutdown()]);
  await Promise.all([
    throttledOtel.shutdown(),
    unthrottledOtel.shutdown(),
    directOtel.shutdown(),
    histogramOtel.shutdown(),
  ]);
  return {
    rows,
    recordsPerIteration: Object.fromEntries(cases.map((c) => [c.name, c.records])),
    rounds,
    pinnedCpu: pin.cpu,
  };
}
