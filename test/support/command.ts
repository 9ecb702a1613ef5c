import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { npmEnv } from '@backupstats/testkit/node-process';

/** The workspace's root folder. */
export const workspaceRoot: string = fileURLToPath(new URL('../..', import.meta.url));

/** The pinned pnpm, as the README runs it. */
export const PNPM: readonly string[] = ['npx', '-y', 'pnpm@10.34.9'];

/**
 * Runs a command in the workspace's root with npm's per-run settings removed from the environment (npmEnv), and
 * resolves with its exit code and its standard output and error interleaved.
 */
export function runCommand(command: readonly string[]): Promise<{ code: number | null; output: string }> {
  const [file, ...args] = command;
  if (file === undefined) throw new TypeError('runCommand: no command');
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: workspaceRoot, env: npmEnv() });
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
