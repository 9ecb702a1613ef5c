// @ts-nocheck
// A server binary of the tests (Prometheus, the Pushgateway) as a child process: started, waited for until it says
// it is ready, stopped with its temporary folder.
import { type ChildProcess, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { vi } from 'vitest';

/** A started server; `name` names it in errors. */
export interface ServerProcess {
  /**
   * Resolves once `probe` resolves (asked every 100 ms, for 30 s); otherwise stops the server and throws, with the
   * end of its log: it ended, or it was not ready in time.
   */
  ready(probe: () => Promise<void>): Promise<void>;
  /** Kills it (SIGTERM, then SIGKILL after 10 s) and removes `dir`. */
  stop(): Promise<void>;
}

/** Starts `binary` with `args`; `dir` is the server's temporary folder, removed by `stop`. */
export function startServerProcess(name: string, binary: string, args: readonly string[], dir: string): ServerProcess {
  const child: ChildProcess = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    // Kept short: only needed to explain a failed start.
    log = (log + chunk).slice(-4000);
  });
  let exited: string | undefined;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = `exited with ${code ?? signal}`;
      resolve();
    });
    child.once('error', (error) => {
      exited = `failed to start: ${error.message}`;
      resolve();
    });
  });
  const stop = async (): Promise<void> => {
    if (exited === undefined) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exit;
      clearTimeout(killer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  return {
    async ready(probe) {
      // Ready, or ended: either way there is no point in asking again.
      const ready = await vi
        .waitFor(
          async () => {
            if (exited !== undefined) return false;
            await probe();
            return true;
          },
          { timeout: 30_000, interval: 100 },
        )
        .catch((error: unknown) => error);
      if (ready === true) return;
      await stop();
      throw new Error(`${name} ${exited ?? `was not ready within 30 s (${String(ready)})`}:\n${log}`);
    },
    stop,
  };
}
