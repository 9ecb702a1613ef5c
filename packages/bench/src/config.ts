/** What one run of the benchmarks does, from the command line. */
export interface BenchConfig {
  /** Brief runs of every benchmark, for CI: they prove nothing crashes, not how fast anything is. */
  readonly quick: boolean;
  /** Benchmarks to run, by name; all when empty. */
  readonly only: readonly string[];
  /** Bytes pushed through each pipeline run, in MiB, when `--pipeline-mib=N` overrides the default. */
  readonly pipelineMiB?: number | undefined;
  /** Interleaved rounds of the pipeline and demo benchmarks (both demos), when `--rounds=N` overrides the default. */
  readonly rounds?: number | undefined;
  /**
   * Another build of the `backupstats` command (its dist/cli.cjs, inside a package folder where its imports resolve),
   * measured beside the current one in the shell rows, when `--cli-baseline=PATH` names it.
   */
  readonly cliBaseline?: string | undefined;
}

/** The benchmark names `--only` accepts, in the order a full run executes them. */
export const BENCHMARKS = [
  'record',
  'workers',
  'pipeline',
  'flush',
  'memory',
  'demo',
  'demo-workers',
  'demo-s3',
  's3-request',
  'http-request',
  'azure-upload',
  'pushgateway',
  'textfile',
  'timeline',
  'scrape',
  'shell',
] as const;

const ACCEPTED = `--quick, --only=${BENCHMARKS.join(',')}, --pipeline-mib=N, --rounds=N, --cli-baseline=PATH`;

function positiveInteger(arg: string, prefix: string): number {
  const text = arg.slice(prefix.length);
  const value = Number(text);
  if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(value) || value < 1) {
    throw new Error(`bench: ${prefix}${text} is not a whole number of 1 or more; accepted: ${ACCEPTED}`);
  }
  return value;
}

/** Parses the command line; throws on anything unknown, naming the argument and what is accepted. */
export function parseArgs(argv: readonly string[]): BenchConfig {
  let quick = false;
  let only: string[] = [];
  let pipelineMiB: number | undefined;
  let rounds: number | undefined;
  let cliBaseline: string | undefined;
  for (const arg of argv) {
    if (arg === '--quick') quick = true;
    else if (arg.startsWith('--pipeline-mib=')) pipelineMiB = positiveInteger(arg, '--pipeline-mib=');
    else if (arg.startsWith('--rounds=')) rounds = positiveInteger(arg, '--rounds=');
    else if (arg.startsWith('--cli-baseline=') && arg.length > '--cli-baseline='.length)
      cliBaseline = arg.slice('--cli-baseline='.length);
    else if (arg.startsWith('--only=')) {
      only = arg
        .slice('--only='.length)
        .split(',')
        .filter((name) => name !== '');
      for (const name of only) {
        if (!(BENCHMARKS as readonly string[]).includes(name)) {
          throw new Error(`bench: --only names "${name}"; accepted: ${BENCHMARKS.join(', ')}`);
        }
      }
    } else if (arg !== '--') {
      throw new Error(`bench: unknown argument "${arg}"; accepted: ${ACCEPTED}`);
    }
  }
  return { quick, only, pipelineMiB, rounds, cliBaseline };
}
