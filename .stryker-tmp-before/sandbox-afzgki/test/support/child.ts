// @ts-nocheck
import { type Exit, type NodeProcess, startNode } from '@backupstats/testkit/node-process';
import { vi } from 'vitest';
import type { ScopeTotal } from '../fixtures/workload.mjs';

/** A JSON line a fixture printed. */
export interface FixtureEvent {
  readonly event: string;
  readonly reason?: string;
  readonly records?: number;
  readonly finished?: boolean;
  readonly totals?: ScopeTotal[];
  readonly [key: string]: unknown;
}

/** A fixture script running as a child process, which reports what it does as JSON lines on stdout. */
export interface FixtureProcess {
  readonly child: NodeProcess['child'];
  /** Resolves with the first event named `name` (already printed or still to come); throws after `timeoutMs`. */
  waitForEvent(name: string, timeoutMs?: number): Promise<FixtureEvent>;
  /** Resolves when the process ends, with its exit code or the signal that ended it; throws after `timeoutMs`. */
  exited(timeoutMs?: number): Promise<Exit>;
  /** Everything written to stdout so far (JSON event lines and any other text). */
  stdout(): string;
  /** Everything written to stderr so far, to explain a failure. */
  stderr(): string;
  /** SIGKILLs the process if still running. */
  kill(): Promise<void>;
}

/** Every line printed so far: JSON lines as events, any other text as a `text` event. */
function events(stdout: string): FixtureEvent[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as FixtureEvent;
      } catch {
        return { event: 'text', text: line };
      }
    });
}

/**
 * Resolves with what `find` finds in the process's stdout, as soon as it is printed; throws after `timeoutMs`, or
 * at once when the process ends without printing it. `what` names it in the error.
 */
export async function waitForOutput<T>(
  run: NodeProcess,
  find: (stdout: string) => T | undefined,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const found = await vi.waitFor(
    () => {
      // Once the process has ended its output is complete: the text came or never will.
      if (run.exit() !== undefined) return { value: find(run.stdout()) };
      const value = find(run.stdout());
      if (value === undefined) throw new Error(`no ${what} within ${timeoutMs} ms; stderr:\n${run.stderr()}`);
      return { value };
    },
    { timeout: timeoutMs, interval: 20 },
  );
  if (found.value !== undefined) return found.value;
  const end = run.exit();
  throw new Error(`the process ended (${end?.code ?? end?.signal}) before ${what}; stderr:\n${run.stderr()}`);
}

/** Starts `node <script>` with the cleaned environment plus `env` (see cleanEnv in @backupstats/testkit). */
export function startFixture(
  script: string,
  env: Record<string, string>,
  options: { node?: string; cwd?: string } = {},
): FixtureProcess {
  const run = startNode([script], { env, node: options.node, cwd: options.cwd });
  return {
    child: run.child,
    waitForEvent: (name, timeoutMs) =>
      waitForOutput(run, (stdout) => events(stdout).find((e) => e.event === name), `"${name}" event`, timeoutMs),
    exited: (timeoutMs = 30_000) =>
      vi.waitFor(
        () => {
          const end = run.exit();
          if (end === undefined) throw new Error(`fixture: no exit within ${timeoutMs} ms; stderr:\n${run.stderr()}`);
          return end;
        },
        { timeout: timeoutMs, interval: 20 },
      ),
    stdout: run.stdout,
    stderr: run.stderr,
    kill: run.kill,
  };
}
