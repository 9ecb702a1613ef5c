// Runs the example backup tool as a child process, as a user would, for the tests in /test/example-*.test.ts.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SummaryRow } from '../src/backup-tool/summary.js';

/** The examples package (tsx resolves from there). */
export const EXAMPLES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The tool's entry point. */
export const CLI = join(EXAMPLES_DIR, 'src', 'backup-tool', 'cli.ts');

/** How a run of the tool ended. */
export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of {@link runCli}. */
export interface RunOptions {
  /** Extra environment; OTEL_METRICS_EXPORTER is unset unless given here. */
  readonly env?: Readonly<Record<string, string>>;
  /** Run as this user and group (root can drop to `nobody`, so that file permissions apply). */
  readonly uid?: number;
  readonly gid?: number;
  /** A command and its arguments to run the tool under (for example `unshare`). */
  readonly wrapper?: readonly string[];
  /** The Node.js binary to run the tool with (default: the one running the tests). */
  readonly node?: string;
  readonly timeoutMs?: number;
}

function environment(extra: Readonly<Record<string, string>> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const key of Object.keys(env)) {
    if ((key.startsWith('OTEL_') || key.startsWith('BACKUPSTATS_')) && !(extra !== undefined && key in extra)) delete env[key];
  }
  return env;
}

/** Starts the tool and returns the child, for runs that stay up (`--serve`). */
export function startCli(args: readonly string[], options: RunOptions = {}): ChildProcess {
  const command = [...(options.wrapper ?? []), options.node ?? process.execPath, '--import', 'tsx', CLI, ...args];
  return spawn(command[0] as string, command.slice(1), {
    cwd: EXAMPLES_DIR,
    env: environment(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid ?? options.uid }),
  });
}

/** Runs the tool to its end and returns its exit status and output. */
export function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
  const child = startCli(args, options);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the tool did not end within ${options.timeoutMs ?? 60_000} ms:\n${stdout}\n${stderr}`));
    }, options.timeoutMs ?? 60_000);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** One row of the tool's `--summary-json`: the tool's own type. */
export type { SummaryRow };

/** Reads a `--summary-json` file. */
export async function readSummary(path: string): Promise<SummaryRow[]> {
  return JSON.parse(await readFile(path, 'utf8')) as SummaryRow[];
}

/** The row of one scope, or zeros when the pipeline exported nothing for it. */
export function row(rows: readonly SummaryRow[], family: string, component: string, operation: string): SummaryRow {
  const found = rows.find((r) => r.family === family && r.component === component && r.operation === operation);
  return found ?? { family: family as SummaryRow['family'], component, implementation: '-', operation, operations: 0, bytes: 0, seconds: 0 };
}

/** sha256 of a file, hex. */
export async function sha256File(path: string): Promise<string> {
  return createHash('sha256').update(await readFile(path)).digest('hex');
}
