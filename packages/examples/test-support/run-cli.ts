// Runs the example backup tool as a child process, as a user would, for the tests in test/examples and test/e2e.
import { createHash } from 'node:crypto';
import { type Dirent, readdirSync, statSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type NodeProcess, startNode } from '@backupstats/testkit/node-process';
import type { RunRow } from '../src/backup-tool/cli/run-summary.js';
import type { SummaryRow } from '../src/backup-tool/cli/scope-summary.js';

/** The examples package (tsx resolves from there). */
export const EXAMPLES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The tool's entry point, as `pnpm demo` runs it through tsx. */
export const CLI = join(EXAMPLES_DIR, 'src', 'backup-tool', 'cli.ts');
/** The tool compiled to JavaScript by the examples' build (`pnpm build`): what the tests run unless told `viaTsx`. */
export const COMPILED_CLI = join(EXAMPLES_DIR, 'dist', 'backup-tool', 'cli.js');

/** How a run of the tool ended. */
export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of {@link runCli}. */
export interface RunOptions {
  /** Extra environment on top of the cleaned one (no OTEL_*, BACKUPSTATS_* or FIXTURE_* variable unless given here). */
  readonly env?: Readonly<Record<string, string>>;
  /** Run as this user and group (root can drop to `nobody`, so that file permissions apply). */
  readonly uid?: number;
  readonly gid?: number;
  /** A command and its arguments to run the tool under (for example `unshare`). */
  readonly wrapper?: readonly string[];
  /** The Node.js binary to run the tool with (default: the one running the tests). */
  readonly node?: string;
  readonly timeoutMs?: number;
  /** Keep the report page the tool writes to the temporary folder when `args` name none (removed at its end). */
  readonly keepReport?: boolean;
  /**
   * Run the TypeScript source through tsx, as `pnpm demo` does, instead of the compiled tool. Starting through tsx
   * costs about twice the CPU of the compiled start, so only the tests that pin what users run keep it: no warning
   * at start, and one run for each storage path (tsx's loader also has to reach the compression workers).
   */
  readonly viaTsx?: boolean;
}

/** The modification times of the files under `folder`, none when it does not exist. */
function mtimes(folder: string): number[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(folder, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  return entries.filter((entry) => entry.isFile()).map((entry) => statSync(join(entry.parentPath, entry.name)).mtimeMs);
}

let compiledChecked = false;

/**
 * Throws unless dist/ holds a build of the current src/: a test must not pass or fail on old code. The build empties
 * dist/ and writes every file anew, so dist/ is current when no file it is built from is newer than its oldest file
 * (as scripts/build-if-stale.mjs judges the library). It does not build itself: the files of the e2e tier run four at
 * once, and one building while another runs the tool would swap the files under it.
 */
function assertCompiledCurrent(): void {
  if (compiledChecked) return;
  const built = mtimes(join(EXAMPLES_DIR, 'dist'));
  const sources = [
    ...mtimes(join(EXAMPLES_DIR, 'src')),
    ...['build.mjs', 'tsconfig.json'].map((file) => statSync(join(EXAMPLES_DIR, file)).mtimeMs),
  ];
  if (built.length === 0 || Math.max(...sources) > Math.min(...built)) {
    throw new Error(
      `the compiled example tool in ${join(EXAMPLES_DIR, 'dist')} is ${built.length === 0 ? 'missing' : 'older than its source'}: ` +
        'run `npx -y pnpm@10.34.9 build` (or `node packages/examples/build.mjs`) before these tests',
    );
  }
  compiledChecked = true;
}

/**
 * Starts the tool, compiled (or through tsx with `viaTsx`), with the cleaned environment plus `env`, and returns it,
 * for runs that stay up (`--serve`).
 */
export function startCli(args: readonly string[], options: RunOptions = {}): NodeProcess {
  const { env, uid, gid, wrapper, node, viaTsx } = options;
  if (viaTsx !== true) assertCompiledCurrent();
  const command = viaTsx === true ? ['--import', 'tsx', CLI] : [COMPILED_CLI];
  const tool = startNode([...command, ...args], { cwd: EXAMPLES_DIR, env, uid, gid, wrapper, node });
  // Told no page, the tool writes one of its own to the temporary folder for every run: a test that named none
  // does not read it, so it goes with the run.
  if (!args.includes('--report') && options.keepReport !== true) {
    void tool.exited.then(() => {
      const page = /^report: (.+)$/m.exec(tool.stdout())?.[1];
      return page === undefined ? undefined : rm(page, { force: true });
    });
  }
  return tool;
}

/** Runs the tool to its end and returns its exit status and output; SIGKILLs it and throws after `timeoutMs`. */
export async function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
  const run = startCli(args, options);
  const timeoutMs = options.timeoutMs ?? 60_000;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void run.kill();
  }, timeoutMs);
  const { code, signal } = await run.exited.finally(() => clearTimeout(timer));
  if (timedOut) throw new Error(`the tool did not end within ${timeoutMs} ms:\n${run.stdout()}\n${run.stderr()}`);
  return { code, signal, stdout: run.stdout(), stderr: run.stderr() };
}

/** The rows of the tool's `--summary-json`: the tool's own types. */
export type { RunRow, SummaryRow };

/** Reads the scope rows of a `--summary-json` file. */
export async function readSummary(path: string): Promise<SummaryRow[]> {
  return (JSON.parse(await readFile(path, 'utf8')) as { scopes: SummaryRow[] }).scopes;
}

/** Reads the run rows of a `--summary-json` file: the runs counted, by scope, outcome and reason. */
export async function readRuns(path: string): Promise<RunRow[]> {
  return (JSON.parse(await readFile(path, 'utf8')) as { runs: RunRow[] }).runs;
}

/** The row of one scope, or zeros when the pipeline exported nothing for it. */
export function row(rows: readonly SummaryRow[], family: string, component: string, operation: string): SummaryRow {
  const found = rows.find((r) => r.family === family && r.component === component && r.operation === operation);
  return (
    found ?? {
      family: family as SummaryRow['family'],
      component,
      implementation: '-',
      operation,
      operations: 0,
      bytes: 0,
      seconds: 0,
    }
  );
}

/** sha256 of a file, hex. */
export async function sha256File(path: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
}
