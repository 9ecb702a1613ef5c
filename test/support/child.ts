import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
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

/** A fixture running as a child process. */
export interface FixtureProcess {
  readonly child: ChildProcess;
  /** Resolves with the first event named `name` (already printed or still to come); throws after `timeoutMs`. */
  waitForEvent(name: string, timeoutMs?: number): Promise<FixtureEvent>;
  /** Resolves when the process ends, with its exit code or the signal that ended it; throws after `timeoutMs`. */
  exited(timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything written to stdout so far (JSON event lines and any other text). */
  stdout(): string;
  /** Everything written to stderr so far, to explain a failure. */
  stderr(): string;
  /** SIGKILLs the process if still running. */
  kill(): Promise<void>;
}

/** Environment for a fixture: the parent's, less every OTEL_* / BACKUPSTATS_* / FIXTURE_* variable, plus `env`. */
export function fixtureEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(OTEL_|BACKUPSTATS_|FIXTURE_)/.test(k) && k !== 'NODE_OPTIONS'),
  );
  return { ...base, ...env };
}

/** Starts `node <script>` with the given environment (see {@link fixtureEnv}). */
export function startFixture(
  script: string,
  env: Record<string, string>,
  options: { node?: string; cwd?: string } = {},
): FixtureProcess {
  const child = spawn(options.node ?? process.execPath, [script], {
    env: fixtureEnv(env),
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const events: FixtureEvent[] = [];
  const listeners = new Set<() => void>();
  let stdout = '';
  let stderr = '';
  let ended: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    stdout += `${line}\n`;
    try {
      events.push(JSON.parse(line) as FixtureEvent);
    } catch {
      events.push({ event: 'text', text: line });
    }
    for (const listener of listeners) listener();
  });
  const closed = new Promise<void>((resolve) => {
    child.once('close', (code, signal) => {
      ended = { code, signal };
      for (const listener of listeners) listener();
      resolve();
    });
    child.once('error', (error) => {
      stderr += `\nspawn failed: ${error.message}`;
      ended = { code: null, signal: null };
      for (const listener of listeners) listener();
      resolve();
    });
  });

  const waitUntil = <T>(probe: () => T | undefined, timeoutMs: number, what: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        const found = probe();
        if (found !== undefined) {
          cleanup();
          resolve(found);
        } else if (ended !== undefined && what !== 'exit') {
          cleanup();
          reject(new Error(`fixture ended (${ended.code ?? ended.signal}) before ${what}; stderr:\n${stderr}`));
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`fixture: no ${what} within ${timeoutMs} ms; stderr:\n${stderr}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      check();
    });

  return {
    child,
    waitForEvent: (name, timeoutMs = 30_000) =>
      waitUntil(() => events.find((e) => e.event === name), timeoutMs, `"${name}" event`),
    exited: (timeoutMs = 30_000) => waitUntil(() => ended, timeoutMs, 'exit'),
    stdout: () => stdout,
    stderr: () => stderr,
    async kill() {
      if (ended === undefined) {
        child.kill('SIGKILL');
        await closed;
      }
    },
  };
}
