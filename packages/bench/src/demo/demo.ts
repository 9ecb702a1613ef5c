import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchConfig } from '../config.js';
import { runNode } from '../harness/node-run.js';
import { type Summary, summarize } from '../harness/sample.js';
import { type BenchS3, startBenchS3 } from '../s3/s3-server.js';

/** Where the demo's backup goes: a folder, or a bucket on an S3 server (s3rver) on 127.0.0.1. */
export type DemoStorage = 'folder' | 's3';

/** The demo backup with metrics on and off, or why it could not run. */
export type DemoResult =
  | {
      readonly status: 'measured';
      readonly storage: DemoStorage;
      readonly dataMiB: number;
      readonly rounds: number;
      readonly onMs: Summary;
      readonly offMs: Summary;
      /** Median of per-round (on / off - 1), percent. */
      readonly overheadPercent: number;
      readonly overheadMinPercent: number;
      readonly overheadMaxPercent: number;
      /** Median wall time of starting the tool and printing its help: the part of each run that is not backup. */
      readonly startupMs: number;
      /** Median of per-round CPU-time ratios (whole process, all threads) minus 1, percent. */
      readonly cpuOverheadPercent: number;
      /** As `overheadPercent`, with the median start-up time taken off both runs of each round. */
      readonly backupOnlyOverheadPercent: number;
      readonly backupOnlyOverheadMinPercent: number;
      readonly backupOnlyOverheadMaxPercent: number;
      readonly command: string;
    }
  | { readonly status: 'todo'; readonly reason: string };

const EXAMPLES_DIR = fileURLToPath(new URL('../../../examples/', import.meta.url));
const CLI = join(EXAMPLES_DIR, 'src', 'backup-tool', 'cli.ts');
/**
 * The tool compiled by the examples' build (`pnpm build`), which a quick run starts instead: a start through tsx costs
 * about twice the CPU of the compiled one, and a quick run's figures mean nothing.
 */
const COMPILED_CLI = join(EXAMPLES_DIR, 'dist', 'backup-tool', 'cli.js');
const REPORT_CPU = new URL('./report-cpu.mjs', import.meta.url).href;

/** Output and exit of one run of the demo's command line. */
interface CliRun {
  readonly ms: number;
  /** CPU time of the whole process (user + system, all threads), as the preloaded report-cpu.mjs printed it. */
  readonly cpuMs: number;
  readonly stdout: string;
}

/** How the tool is started: through tsx, as `pnpm demo` does; compiled with --quick. */
function tool(config: BenchConfig): { readonly node: readonly string[]; readonly command: string } {
  return config.quick
    ? { node: [COMPILED_CLI], command: 'node packages/examples/dist/backup-tool/cli.js' }
    : { node: ['--import', 'tsx', CLI], command: 'tsx packages/examples/src/backup-tool/cli.ts' };
}

/** Runs the demo's CLI as {@link tool} says and times the whole process. */
async function runCli(
  config: BenchConfig,
  args: readonly string[],
  metrics: boolean,
  env: Readonly<Record<string, string>> = {},
): Promise<CliRun> {
  // On: the demo's default, metrics recorded and collected for its summary, exported nowhere else.
  const run = await runNode(['--import', REPORT_CPU, ...tool(config).node, ...args], {
    cwd: EXAMPLES_DIR,
    env: metrics ? env : { ...env, BACKUPSTATS_DISABLED: 'true' },
  });
  if (run.code !== 0) {
    // The error line, not Node's trailer: the first line naming an error, else the last lines.
    const lines = run.stderr.trim().split('\n');
    const reason = lines.find((line) => /error/i.test(line)) ?? lines.slice(-3).join(' / ');
    throw new Error(`demo ${args.join(' ')} exited with ${run.code ?? run.signal}: ${reason.trim()}`);
  }
  const cpuMs = Number(/^bench-cpu-ms (\S+)$/m.exec(run.stderr)?.[1] ?? Number.NaN);
  // The page the demo writes to the temporary folder for every run, which the benchmark does not read.
  const page = /^report: (.+)$/m.exec(run.stdout)?.[1];
  if (page !== undefined) await rm(page, { force: true });
  return { ms: run.ms, cpuMs, stdout: run.stdout };
}

/**
 * The demo's generated data, made on first use by the demo's own generator and backed up by every demo benchmark of
 * the run: one data set, so the three demo benchmarks time the same files and generate them once.
 */
export interface DemoData {
  /** The folder of the generated files (the kept round trip's `source`). */
  source(): Promise<string>;
  /**
   * Wall time of one start of the tool alone (`--help`), ms: a new run each call, except with --quick, where the
   * first run's time answers every call (a quick run's figures mean nothing; the start-up run is the same for all).
   */
  startupMs(): Promise<number>;
  /** Deletes the data, once every benchmark that backs it up is done. */
  remove(): Promise<void>;
}

/** The data set `pnpm demo` backs up (200 MiB; 1 MiB with --quick), made when a benchmark first asks for it. */
export function demoData(config: BenchConfig): DemoData {
  const sizeMiB = demoSizeMiB(config);
  let made: Promise<{ kept: string; source: string }> | undefined;
  let quickStartup: Promise<number> | undefined;
  const startup = async () => (await runCli(config, ['--help'], true)).ms;
  const make = async () => {
    // One full demo round trip with `--keep`, into a temporary folder (`--storage file`): its `source` is the data.
    const setup = await runCli(config, ['--quiet', '--keep', '--storage', 'file', '--size', `${sizeMiB}MiB`], true);
    const kept = /^kept: (.+)$/m.exec(setup.stdout)?.[1]?.trim();
    if (kept === undefined) throw new Error(`the demo printed no "kept: <folder>" line:\n${setup.stdout}`);
    const source = join(kept, 'source');
    if (!existsSync(source)) {
      await rm(kept, { recursive: true, force: true });
      throw new Error(`the demo kept ${kept} without the source folder ${source}`);
    }
    return { kept, source };
  };
  return {
    async source() {
      made ??= make();
      return (await made).source;
    },
    startupMs() {
      if (!config.quick) return startup();
      quickStartup ??= startup();
      return quickStartup;
    },
    async remove() {
      const kept = await made?.then(
        (data) => data.kept,
        () => undefined,
      );
      if (kept !== undefined) await rm(kept, { recursive: true, force: true });
    },
  };
}

/** Sample data size, MiB: tiny with --quick, whose figures mean nothing; it only shows that every step runs. */
function demoSizeMiB(config: BenchConfig): number {
  return config.quick ? 1 : 200;
}

/**
 * Times the demo's `backup <folder> <storage>` with metrics on and off (`BACKUPSTATS_DISABLED=true`), over the
 * same generated data ({@link demoData}), alternating on and off in every round. With `storage: 's3'`
 * the backup goes to `s3://bench/run-N` on an s3rver this process runs on 127.0.0.1 (the same for on and off),
 * emptied after each run.
 */
export async function runDemo(
  config: BenchConfig,
  log: (line: string) => void,
  data: DemoData,
  storage: DemoStorage = 'folder',
  /** More arguments of the timed backups (`--workers 2`). */
  extra: readonly string[] = [],
): Promise<DemoResult> {
  if (!existsSync(CLI)) return { status: 'todo', reason: `the demo's backup tool (${CLI}) is not there` };
  if (config.quick && !existsSync(COMPILED_CLI))
    throw new Error(`bench demo: ${COMPILED_CLI} is missing; run pnpm build`);
  const sizeMiB = demoSizeMiB(config);
  const rounds = config.rounds ?? (config.quick ? 1 : storage === 's3' ? 8 : 6);
  const scratch = await mkdtemp(join(tmpdir(), 'backupstats-bench-demo-'));
  let s3: BenchS3 | undefined;
  try {
    const source = await data.source();
    if (storage === 's3') s3 = await startBenchS3();

    const startup: number[] = [];
    const on: number[] = [];
    const off: number[] = [];
    const onCpu: number[] = [];
    const offCpu: number[] = [];
    let index = 0;
    const backupOnce = async (metrics: boolean): Promise<CliRun> => {
      if (s3 !== undefined) {
        const prefix = `run-${index++}`;
        const run = await runCli(
          config,
          ['--quiet', ...extra, 'backup', source, `s3://${s3.bucket}/${prefix}`],
          metrics,
          s3.env,
        );
        await s3.empty(`${prefix}/`);
        return run;
      }
      const folder = join(scratch, `storage-${index++}`);
      const run = await runCli(config, ['--quiet', ...extra, 'backup', source, folder], metrics);
      await rm(folder, { recursive: true, force: true });
      return run;
    };
    // One unmeasured pass each: the page cache then holds the source for every timed run. A quick run's figures
    // mean nothing anyway, and it only shows that every step runs.
    if (!config.quick) {
      await backupOnce(true);
      await backupOnce(false);
    }
    for (let round = 0; round < rounds; round++) {
      // Alternate which goes first, so neither always follows the other.
      const order = round % 2 === 0 ? [true, false] : [false, true];
      for (const metrics of order) {
        const run = await backupOnce(metrics);
        (metrics ? on : off).push(run.ms);
        (metrics ? onCpu : offCpu).push(run.cpuMs);
      }
      startup.push(await data.startupMs());
      log(
        `  demo (${storage}) round ${round + 1}/${rounds}: on ${on.at(-1)?.toFixed(0)} ms, off ${off.at(-1)?.toFixed(0)} ms`,
      );
    }
    const overheads = summarize(on.map((ms, i) => (ms / (off[i] as number) - 1) * 100));
    const startupMs = summarize(startup).median;
    const backupOnly = summarize(on.map((ms, i) => ((ms - startupMs) / ((off[i] as number) - startupMs) - 1) * 100));
    return {
      status: 'measured',
      storage,
      dataMiB: sizeMiB,
      rounds,
      onMs: summarize(on),
      offMs: summarize(off),
      overheadPercent: overheads.median,
      overheadMinPercent: overheads.min,
      overheadMaxPercent: overheads.max,
      cpuOverheadPercent: summarize(onCpu.map((ms, i) => (ms / (offCpu[i] as number) - 1) * 100)).median,
      startupMs,
      backupOnlyOverheadPercent: backupOnly.median,
      backupOnlyOverheadMinPercent: backupOnly.min,
      backupOnlyOverheadMaxPercent: backupOnly.max,
      command: `${tool(config).command} --quiet backup <sample data> ${storage === 's3' ? 's3://bench/run-N' : '<storage>'}`,
    };
  } finally {
    await s3?.stop();
    await rm(scratch, { recursive: true, force: true });
  }
}
