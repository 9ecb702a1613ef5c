import { execFile } from 'node:child_process';
import { findBinary } from './prometheus.js';

/** `promtool` (`PROMTOOL_BIN` if set, else `/usr/bin/promtool`, from Debian's `prometheus` package), or undefined. */
export const promtoolBinary: string | undefined = findBinary('PROMTOOL_BIN', '/usr/bin/promtool');

/** What one promtool command did. */
export interface PromtoolResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `promtool <args>` in `cwd`, with `input` on its standard input when given, and resolves with its exit code
 * and output (a failing check resolves too).
 */
export function promtool(args: readonly string[], cwd: string, input?: string | Buffer): Promise<PromtoolResult> {
  if (promtoolBinary === undefined) {
    return Promise.reject(
      new Error('promtool is missing: no executable at PROMTOOL_BIN or /usr/bin/promtool (apt-get install prometheus)'),
    );
  }
  return new Promise((resolve, reject) => {
    const child = execFile(promtoolBinary as string, [...args], { cwd, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : (error as { code?: unknown }).code;
      if (typeof code !== 'number') reject(error);
      else resolve({ code, stdout, stderr });
    });
    child.stdin?.end(input);
  });
}
