// exitAfterShutdown in process (process.exit stubbed): a shutdown that reaches its deadline or fails is reported
// through diag, and the process still exits with the code asked for. The real exit is test/exit/shutdown-on-exit.test.ts.
import { exitAfterShutdown } from 'backupstats/setup';
import { describe, expect, vi } from 'vitest';
import { it } from '../support/fixtures.js';

function stubExit(onTestFinished: (fn: () => void) => void) {
  const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
  onTestFinished(() => exit.mockRestore());
  return exit;
}

describe('exitAfterShutdown', () => {
  it("a shutdown that does not finish within the target's deadline is said, and the process exits with the code", async ({
    diagnostics,
    onTestFinished,
  }) => {
    const exit = stubExit(onTestFinished);
    const target = { shutdown: () => new Promise<void>(() => {}), shutdownTimeoutMillis: 20 };
    await exitAfterShutdown(target, 3);
    expect(diagnostics.messages).toEqual([
      'backupstats: shutdown before exit did not finish within 20 ms; the process ends without it',
    ]);
    expect(exit.mock.calls).toEqual([[3]]);
  });

  it('a shutdown that fails is said with its error, and the process exits with the code', async ({
    diagnostics,
    onTestFinished,
  }) => {
    const exit = stubExit(onTestFinished);
    const failure = new Error('exporter gone');
    await exitAfterShutdown({ shutdown: () => Promise.reject(failure) }, 4);
    expect(diagnostics.messages).toEqual(['backupstats: shutdown before exit failed Error: exporter gone']);
    expect(exit.mock.calls).toEqual([[4]]);
  });

  it('a shutdown that finishes in time is not mentioned', async ({ diagnostics, onTestFinished }) => {
    const exit = stubExit(onTestFinished);
    await exitAfterShutdown({ shutdown: async () => {}, shutdownTimeoutMillis: 1000 }, 0);
    expect(diagnostics.messages).toEqual([]);
    expect(exit.mock.calls).toEqual([[0]]);
  });
});
