// Runs the built `backupstats` command (dist/cli.cjs) in child processes, as a shell user would: a `backupstats` on the
// PATH, the environment cleaned of the test runner's OTEL_* and BACKUPSTATS_* variables.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnv } from '@backupstats/testkit/node-process';
import { onTestFinished } from 'vitest';
import { parseExposition, type Sample } from '../../../test/support/pushgateway/exposition.js';

/** The built command. */
export const CLI = fileURLToPath(new URL('../dist/cli.cjs', import.meta.url));
if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`pnpm build\` first`);

/**
 * A folder with a `backupstats` that runs the built command, first on the PATH of every child: one folder in the
 * package (git-ignored), written whole by each test process that loads this module, rather than one left in the
 * temporary folder by each.
 */
const bin = fileURLToPath(new URL('../.run-bin/', import.meta.url));
mkdirSync(bin, { recursive: true });
const script = join(bin, `backupstats.${process.pid}.tmp`);
writeFileSync(script, `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, { mode: 0o755 });
renameSync(script, join(bin, 'backupstats'));

/** How a child ended and what it printed. */
export interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface StartedCli {
  readonly child: ChildProcess;
  /** What it printed on stdout so far. */
  stdout(): string;
  /** Resolves once stdout holds `text`. */
  printed(text: string): Promise<void>;
  readonly ended: Promise<Ended>;
}

/** Starts `backupstats ...args` with `env` on top of a clean environment; killed if still running when the test ends. */
export function startCli(
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string; stdin?: 'ignore' | 'pipe' } = {},
): StartedCli {
  return startCommand([join(bin, 'backupstats'), ...args], options);
}

/** Starts a command with `backupstats` on the PATH; killed if still running when the test ends. */
export function startCommand(
  [file, ...args]: readonly string[],
  options: { env?: Record<string, string>; cwd?: string; stdin?: 'ignore' | 'pipe' } = {},
): StartedCli {
  const env = cleanEnv({ ...options.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` });
  const child = spawn(file as string, args, {
    cwd: options.cwd,
    env,
    stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiting: Array<{ text: string; resolve: () => void }> = [];
  child.stdout?.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
    for (const wait of waiting.filter((w) => stdout.includes(w.text))) wait.resolve();
  });
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  const ended = new Promise<Ended>((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return {
    child,
    ended,
    stdout: () => stdout,
    printed: (text) =>
      new Promise<void>((resolve, reject) => {
        if (stdout.includes(text)) resolve();
        else waiting.push({ text, resolve });
        void ended.then(() => reject(new Error(`ended without printing ${text}: ${stdout}\n${stderr}`)));
      }),
  };
}

/** Runs `sh -c script` with `backupstats` on the PATH, to its end. */
export function runShell(script: string, options: { env?: Record<string, string>; cwd?: string } = {}): Promise<Ended> {
  return startCommand(['sh', '-c', script], options).ended;
}

/** Runs `backupstats ...args` to its end. */
export function runCli(
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<Ended> {
  return startCli(args, options).ended;
}

/** The samples of a textfile the command exported. */
export function textfileSamples(path: string): Sample[] {
  return parseExposition(readFileSync(path, 'utf8'));
}

/** A temporary folder, removed when the test ends. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `backupstats-${prefix}-`));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
