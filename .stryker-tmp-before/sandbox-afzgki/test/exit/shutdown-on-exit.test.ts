// @ts-nocheck
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { type Exit, type NodeProcess, startNode } from '@backupstats/testkit/node-process';
import { shutdownOnExit } from 'backupstats/setup';
import { describe, expect, it, onTestFinished } from 'vitest';
import { waitForOutput } from '../support/child.js';

// Small child processes that use backupstats/setup with the console exporter, so that what was exported is on
// their stdout. The end-to-end tests with real receivers and long recording loops are in test/e2e/exit.test.ts.

const root = join(import.meta.dirname, '..', '..');

interface Run {
  readonly child: NodeProcess['child'];
  output(): string;
  /** Resolves once stdout contains `text`; rejects if the process ends first. */
  printed(text: string): Promise<void>;
  readonly exited: Promise<Exit>;
}

/** Runs `code` as an ES module in a child whose environment has no OTEL_* or BACKUPSTATS_* but `env`. */
function run(code: string, env: Record<string, string>): Run {
  const child = startNode(['--input-type=module', '-e', code], { cwd: root, env });
  onTestFinished(() => child.kill());
  return {
    child: child.child,
    output: child.stdout,
    exited: child.exited,
    printed: async (text) => {
      await waitForOutput(child, (stdout) => stdout.includes(text) || undefined, JSON.stringify(text));
    },
  };
}

const CONSOLE = { OTEL_METRICS_EXPORTER: 'console' };
const RECORD = `
import { exitAfterShutdown, shutdownOnExit, startBackupStats } from 'backupstats/setup';
const stats = await startBackupStats();
stats.backup.scope({ component: 'BackupStorage', implementation: 'File', operation: 'File:Write' }).timedIncrementBytes(4096, 2);
`;
/** How the console exporter prints the recorded bytes. */
const EXPORTED = /name: 'backup\.bytes'[\s\S]*?operation: 'File:Write'[\s\S]*?value: 4096/;

describe('console exporter and the end of a process', () => {
  it('a program that just returns exports its final numbers on the console (beforeExit) and exits 0', async () => {
    const child = run(`${RECORD} shutdownOnExit(stats);`, CONSOLE);
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.output()).toMatch(EXPORTED);
  });

  it('without shutdownOnExit, nothing is exported when the program returns (the reason it exists)', async () => {
    const child = run(RECORD, CONSOLE);
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.output()).not.toMatch(/backup\.bytes/);
  });

  it('process.exit() skips beforeExit, so it loses the numbers; exitAfterShutdown keeps them and the code', async () => {
    const lost = run(`${RECORD} shutdownOnExit(stats); process.exit(0);`, CONSOLE);
    expect(await lost.exited).toEqual({ code: 0, signal: null });
    expect(lost.output()).not.toMatch(/backup\.bytes/);

    const kept = run(`${RECORD} shutdownOnExit(stats); await exitAfterShutdown(stats, 3);`, CONSOLE);
    expect(await kept.exited).toEqual({ code: 3, signal: null });
    expect(kept.output()).toMatch(EXPORTED);
  });

  it('SIGTERM: the final numbers are exported, then the process dies by SIGTERM', async () => {
    const child = run(
      `${RECORD} shutdownOnExit(stats); setInterval(() => {}, 1 << 30); console.log('ready');`,
      CONSOLE,
    );
    await child.printed('ready');
    child.child.kill('SIGTERM');
    expect(await child.exited).toEqual({ code: null, signal: 'SIGTERM' });
    expect(child.output()).toMatch(EXPORTED);
  });

  it("the program's own SIGINT listener still runs and decides how the process ends", async () => {
    const child = run(
      `${RECORD}
      process.on('SIGINT', () => {
        console.log('own listener');
        // The same shutdown shutdownOnExit started: waiting for it is waiting for the final export.
        stats.shutdown().then(() => process.exit(7));
      });
      shutdownOnExit(stats);
      setInterval(() => {}, 1 << 30);
      console.log('ready');`,
      CONSOLE,
    );
    await child.printed('ready');
    child.child.kill('SIGINT');
    expect(await child.exited).toEqual({ code: 7, signal: null });
    expect(child.output()).toContain('own listener');
    expect(child.output()).toMatch(EXPORTED);
  });

  it('a second signal during a shutdown that hangs ends the process at once by that signal', async () => {
    // An OTLP "receiver" that accepts the connection and never answers: the final export hangs.
    const sockets = new Set<Socket>();
    let connected: () => void = () => {};
    const connection = new Promise<void>((resolve) => {
      connected = resolve;
    });
    const hole = createServer((socket) => {
      sockets.add(socket);
      connected();
    });
    await new Promise<void>((resolve) => hole.listen(0, '127.0.0.1', resolve));
    const address = hole.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    try {
      const child = run(`${RECORD} shutdownOnExit(stats); setInterval(() => {}, 1 << 30); console.log('ready');`, {
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${address.port}`,
      });
      await child.printed('ready');
      child.child.kill('SIGTERM');
      await connection;
      child.child.kill('SIGINT');
      expect(await child.exited).toEqual({ code: null, signal: 'SIGINT' });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => hole.close(() => resolve()));
    }
  });
});

describe('shutdownOnExit in process', () => {
  it('rejects a signal that cannot be caught or does not exist, naming it', () => {
    const target = { shutdown: () => Promise.resolve() };
    expect(() => shutdownOnExit(target, { signals: ['SIGKILL'] })).toThrow(
      /signal is "SIGKILL" \(it cannot be caught\); accepted: /,
    );
    expect(() => shutdownOnExit(target, { signals: ['SIGNOPE' as NodeJS.Signals] })).toThrow(
      /signal is "SIGNOPE" \(it cannot be caught\)/,
    );
  });

  it('rejects a timeout that is not a positive integer of milliseconds, naming it', () => {
    const target = { shutdown: () => Promise.resolve() };
    for (const timeoutMillis of [0, -1, 1.5, Number.NaN, 2 ** 31]) {
      expect(() => shutdownOnExit(target, { timeoutMillis })).toThrow(
        /shutdownOnExit timeoutMillis is .+; accepted: an integer from 1 to 2147483647/,
      );
    }
  });

  it('two registrations share one listener per signal; each removes only itself', () => {
    const events = ['SIGTERM', 'SIGINT', 'beforeExit'] as const;
    const before = events.map((e) => process.listenerCount(e));
    const first = shutdownOnExit({ shutdown: () => Promise.resolve() });
    const second = shutdownOnExit({ shutdown: () => Promise.resolve() });
    expect(events.map((e) => process.listenerCount(e))).toEqual(before.map((n) => n + 1));
    first();
    expect(events.map((e) => process.listenerCount(e))).toEqual(before.map((n) => n + 1));
    second();
    expect(events.map((e) => process.listenerCount(e))).toEqual(before);
  });

  it('adds one listener per signal and for beforeExit, and the returned function removes exactly those', () => {
    const events = ['SIGTERM', 'SIGINT', 'SIGHUP', 'beforeExit'] as const;
    const before = events.map((e) => process.listenerCount(e));
    const uninstall = shutdownOnExit({ shutdown: () => Promise.resolve() }, { signals: ['SIGTERM', 'SIGHUP'] });
    expect(events.map((e) => process.listenerCount(e))).toEqual([
      before[0]! + 1,
      before[1],
      before[2]! + 1,
      before[3]! + 1,
    ]);
    uninstall();
    expect(events.map((e) => process.listenerCount(e))).toEqual(before);
  });
});
