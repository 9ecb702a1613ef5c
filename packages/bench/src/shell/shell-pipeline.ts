import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchConfig } from '../config.js';
import { type Summary, summarize } from '../harness/sample.js';

/** The built command: `pnpm bench` builds it first. */
const CLI = fileURLToPath(new URL('../../../cli/dist/cli.cjs', import.meta.url));
const PV = ['/usr/bin/pv', '/bin/pv'].find((path) => existsSync(path));

/** One way of copying a stream, timed. */
export interface CopyRow {
  readonly copier: string;
  /** Wall time of the whole pipeline, seconds. */
  readonly seconds: Summary;
  /** CPU time of the copier and everything else in the pipeline (user + system of the shell's children), seconds. */
  readonly cpuSeconds: Summary;
  /** Bytes per second at the median. */
  readonly bytesPerSecond: number;
}

/** The shell benchmark: meter next to cat and pv; a gzip pipeline bare and metered; run's start-up. */
export interface ShellResult {
  readonly streamBytes: number;
  readonly copies: readonly CopyRow[];
  /** `pv` was not installed: its row is missing. */
  readonly pvMissing: boolean;
  readonly gzipBytes: number;
  /** `gzip -6 < in > out`, `cat in | gzip -6 | cat > out` and the metered run: wall and CPU seconds. */
  readonly gzipBare: Summary;
  readonly gzipBareCpu: Summary;
  readonly gzipPiped: Summary;
  readonly gzipPipedCpu: Summary;
  readonly gzipMetered: Summary;
  readonly gzipMeteredCpu: Summary;
  /**
   * The metered run's wall time over the same round's piped and bare runs, percent: ratios within a round, so that
   * a drift of the machine between rounds (seconds, on a shared one) weighs on both sides alike.
   */
  readonly gzipMeteredOverPipedPercent: Summary;
  readonly gzipMeteredOverBarePercent: Summary;
  /** `backupstats run -- sh -c true` minus the `sh -c true` run just before it, wall ms. */
  readonly runStartupOverBareMs: Summary;
  /** `backupstats run -- sh -c true` and `sh -c true`: wall ms and CPU ms (user + system of the shell's children). */
  readonly runStartup: Summary;
  readonly runStartupCpu: Summary;
  readonly bareStartup: Summary;
  readonly bareStartupCpu: Summary;
  /** `node -e 0` just after: Node.js's own start, the floor of any command written for Node.js, wall ms. */
  readonly nodeStartup: Summary;
  readonly nodeStartupCpu: Summary;
  /** The same rows of the build `--cli-baseline` names, measured in turn with the current one. */
  readonly baseline?: {
    readonly cli: string;
    readonly gzipMetered: Summary;
    readonly gzipMeteredCpu: Summary;
    readonly runStartup: Summary;
    readonly runStartupCpu: Summary;
  };
  readonly rounds: number;
}

interface Timed {
  readonly seconds: number;
  readonly cpuSeconds: number;
}

const ms = (timed: Timed): number => timed.seconds * 1000;
const cpuMs = (timed: Timed): number => timed.cpuSeconds * 1000;
/** How much longer `timed` took than `base`, percent of `base`. */
const over = (timed: Timed, base: Timed): number => (timed.seconds / base.seconds - 1) * 100;

/**
 * Runs `script` with bash (for `times`, which prints the CPU time of the shell's children) and the command's folder
 * first on the PATH as `backupstats`; resolves with the wall time and the children's CPU time.
 */
function timeShell(script: string, env: Record<string, string>, bin: string): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('bash', ['-c', `${script}\ntimes >&2`], {
      env: { ...process.env, ...env, PATH: `${bin}:${process.env.PATH ?? ''}` },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
    });
    child.once('error', reject);
    child.once('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0) {
        reject(new Error(`bench shell: \`${script}\` exited ${code}: ${stderr}`));
        return;
      }
      // `times` prints the shell's user and system time, then its children's: "0m1.234s 0m0.567s".
      const lines = stderr.trim().split('\n');
      const children = [...(lines.at(-1) ?? '').matchAll(/(\d+)m([\d.]+)s/g)];
      const cpuSeconds = children.reduce((sum, m) => sum + Number(m[1]) * 60 + Number(m[2]), 0);
      resolve({ seconds, cpuSeconds });
    });
  });
}

/** `bytes` random letters a to p, written to `path` in 16 MiB pieces: gzip takes them at tens of MB/s. */
async function writeLetters(path: string, bytes: number): Promise<void> {
  const { randomFillSync } = await import('node:crypto');
  const file = await open(path, 'w');
  const piece = Buffer.allocUnsafe(16 * 1024 * 1024);
  try {
    for (let written = 0; written < bytes; written += piece.length) {
      const part = piece.subarray(0, Math.min(piece.length, bytes - written));
      randomFillSync(part);
      for (let i = 0; i < part.length; i++) part[i] = 97 + ((part[i] as number) & 15);
      await file.write(part);
    }
  } finally {
    await file.close();
  }
}

/**
 * `backupstats meter` next to `cat` and `pv -q` on one stream of zeros (2 GiB; 8 MiB with --quick), the three in
 * turn each round; `gzip -6` of a file of random letters (512 MiB; 2 MiB with --quick) bare, between two `cat`s,
 * and inside `backupstats run` between two meters, in turn each round; and `backupstats run -- sh -c true` against
 * `sh -c true` for the command's own start-up. The run exports to a textfile, as a cron job would.
 */
export async function runShellPipeline(config: BenchConfig): Promise<ShellResult> {
  if (!existsSync(CLI)) throw new Error(`bench shell: ${CLI} is missing; run pnpm build`);
  const dir = await mkdtemp(join(tmpdir(), 'backupstats-bench-shell-'));
  const { mkdir, writeFile, chmod } = await import('node:fs/promises');
  /** A folder with a `backupstats` that runs `cli`, to put first on the PATH. */
  const binOf = async (name: string, cli: string) => {
    const folder = join(dir, name);
    await mkdir(folder);
    await writeFile(join(folder, 'backupstats'), `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`);
    await chmod(join(folder, 'backupstats'), 0o755);
    return folder;
  };
  const bin = await binOf('bin', CLI);
  const baselineCli = config.cliBaseline === undefined ? undefined : resolve(config.cliBaseline);
  if (baselineCli !== undefined && !existsSync(baselineCli)) throw new Error(`bench shell: ${baselineCli} is missing`);
  const baselineBin = baselineCli === undefined ? undefined : await binOf('baseline-bin', baselineCli);
  const env = {
    OTEL_METRICS_EXPORTER: 'textfile',
    BACKUPSTATS_TEXTFILE_PATH: join(dir, 'job.prom'),
    OTEL_SERVICE_NAME: 'bench-shell',
  };
  const rounds = config.rounds ?? (config.quick ? 1 : 3);
  const streamBytes = config.quick ? 8 * 1024 * 1024 : 2 * 1024 * 1024 * 1024;
  const gzipBytes = config.quick ? 2 * 1024 * 1024 : 512 * 1024 * 1024;
  try {
    const meter = 'OTEL_METRICS_EXPORTER=none backupstats meter -q --operation Source:Read';
    const copiers: Array<[string, string, string]> = [
      ['cat', 'cat', bin],
      ...(PV === undefined ? [] : ([['pv -q', `${PV} -q`, bin]] as Array<[string, string, string]>)),
      ['backupstats meter', meter, bin],
      ...(baselineBin === undefined
        ? []
        : ([['backupstats meter (baseline)', meter, baselineBin]] as Array<[string, string, string]>)),
    ];
    const copyTimes = new Map<string, Timed[]>(copiers.map(([name]) => [name, []]));
    await writeLetters(join(dir, 'in.bin'), gzipBytes);
    const bare: Timed[] = [];
    const piped: Timed[] = [];
    const metered: Timed[] = [];
    const meteredBaseline: Timed[] = [];
    const runStartup: Timed[] = [];
    const runStartupBaseline: Timed[] = [];
    const bareStartup: Timed[] = [];
    const nodeStartup: Timed[] = [];
    const meteredGzip = `cd ${dir} && backupstats run -- sh -c 'backupstats meter -q --operation Source:Read < in.bin | gzip -6 | backupstats meter -q --operation Compressor:Write > out.gz'`;
    for (let round = 0; round < rounds; round++) {
      for (const [name, command, path] of copiers) {
        const timed = await timeShell(`head -c ${streamBytes} /dev/zero | ${command} > /dev/null`, env, path);
        copyTimes.get(name)?.push(timed);
      }
      bare.push(await timeShell(`cd ${dir} && gzip -6 < in.bin > out.gz`, env, bin));
      piped.push(await timeShell(`cd ${dir} && cat in.bin | gzip -6 | cat > out.gz`, env, bin));
      metered.push(await timeShell(meteredGzip, env, bin));
      if (baselineBin !== undefined) meteredBaseline.push(await timeShell(meteredGzip, env, baselineBin));
      for (let i = 0; i < (config.quick ? 1 : 5); i++) {
        bareStartup.push(await timeShell('sh -c true', env, bin));
        runStartup.push(await timeShell('backupstats run -- sh -c true', env, bin));
        nodeStartup.push(await timeShell(`"${process.execPath}" -e 0`, env, bin));
        if (baselineBin !== undefined)
          runStartupBaseline.push(await timeShell('backupstats run -- sh -c true', env, baselineBin));
      }
    }
    const gz = await stat(join(dir, 'out.gz'));
    if (gz.size === 0) throw new Error('bench shell: gzip wrote nothing');
    const copies = copiers.map(([name]) => {
      const times = copyTimes.get(name) ?? [];
      const seconds = summarize(times.map((t) => t.seconds));
      return {
        copier: name,
        seconds,
        cpuSeconds: summarize(times.map((t) => t.cpuSeconds)),
        bytesPerSecond: streamBytes / seconds.median,
      };
    });
    return {
      streamBytes,
      copies,
      pvMissing: PV === undefined,
      gzipBytes,
      gzipBare: summarize(bare.map((t) => t.seconds)),
      gzipBareCpu: summarize(bare.map((t) => t.cpuSeconds)),
      gzipPiped: summarize(piped.map((t) => t.seconds)),
      gzipPipedCpu: summarize(piped.map((t) => t.cpuSeconds)),
      gzipMetered: summarize(metered.map((t) => t.seconds)),
      gzipMeteredCpu: summarize(metered.map((t) => t.cpuSeconds)),
      gzipMeteredOverPipedPercent: summarize(metered.map((t, i) => over(t, piped[i] as Timed))),
      gzipMeteredOverBarePercent: summarize(metered.map((t, i) => over(t, bare[i] as Timed))),
      runStartupOverBareMs: summarize(runStartup.map((t, i) => ms(t) - ms(bareStartup[i] as Timed))),
      runStartup: summarize(runStartup.map(ms)),
      runStartupCpu: summarize(runStartup.map(cpuMs)),
      bareStartup: summarize(bareStartup.map(ms)),
      bareStartupCpu: summarize(bareStartup.map(cpuMs)),
      nodeStartup: summarize(nodeStartup.map(ms)),
      nodeStartupCpu: summarize(nodeStartup.map(cpuMs)),
      ...(baselineCli === undefined
        ? {}
        : {
            baseline: {
              cli: baselineCli,
              gzipMetered: summarize(meteredBaseline.map((t) => t.seconds)),
              gzipMeteredCpu: summarize(meteredBaseline.map((t) => t.cpuSeconds)),
              runStartup: summarize(runStartupBaseline.map(ms)),
              runStartupCpu: summarize(runStartupBaseline.map(cpuMs)),
            },
          }),
      rounds,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
