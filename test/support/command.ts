import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { npmEnv } from '@backupstats/testkit/node-process';

/** The workspace's root folder. */
export const workspaceRoot: string = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs a command in the workspace's root with npm's per-run settings removed from the environment (npmEnv), and
 * resolves with its exit code and its standard output and error interleaved.
 */
export function runCommand(
  command: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number | null; output: string }> {
  const [file, ...args] = command;
  if (file === undefined) throw new TypeError('runCommand: no command');
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: options.cwd ?? workspaceRoot, env: options.env ?? npmEnv() });
    let output = '';
    const keep = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/**
 * Runs the script `name` of the package.json in `dir` (the workspace's root by default) as `pnpm run name -- args`
 * runs it: its command line, as written there, in `sh` in that folder, with the package's and the workspace's
 * node_modules/.bin first on the PATH. Without pnpm itself, whose start through npx costs about 5 s of CPU.
 */
export function runScript(
  name: string,
  args: readonly string[] = [],
  dir: string = workspaceRoot,
): Promise<{ code: number | null; output: string }> {
  const scripts = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> })
    .scripts;
  const script = scripts?.[name];
  if (script === undefined) throw new Error(`${join(dir, 'package.json')} has no script "${name}"`);
  const quoted = args.map((arg) => `'${arg.replaceAll("'", "'\\''")}'`);
  const env = npmEnv();
  const bins = [join(dir, 'node_modules', '.bin'), join(workspaceRoot, 'node_modules', '.bin')];
  env.PATH = [...bins, env.PATH ?? ''].join(delimiter);
  return runCommand(['sh', '-c', [script, ...quoted].join(' ')], { cwd: dir, env });
}
