// The set-up entry point refuses wrong arguments at the call, in the library's one error form (an option it does not
// know: test/validation/unknown-options.test.ts).
import { Writable } from 'node:stream';
import { exitAfterShutdown, shutdownOnExit, startBackupStats } from 'backupstats/setup';
import { describe, expect, vi } from 'vitest';
import { expectDocumentedCode, thrownBy } from '../support/error-codes.js';
import { it } from '../support/fixtures.js';

const NONE = { OTEL_METRICS_EXPORTER: 'none' };

describe('startBackupStats', () => {
  it.each([
    ['a number', 5, '5'],
    ['null', null, 'null'],
    ['an array', [], 'an instance of Array'],
  ])('refuses options that are %s', async (_case, options, shown) => {
    await expect(startBackupStats(options as never)).rejects.toThrow(
      new RegExp(`^backupstats: startBackupStats options is ${shown.replace(/[()]/g, '\\$&')}; accepted: an object`),
    );
    await expect(startBackupStats(options as never)).rejects.toMatchObject({ code: 'BACKUPSTATS_INVALID_OPTION' });
  });

  it.each([
    ['env as text', { env: 'x' }, 'option env is "x"; accepted: an object of environment variables'],
    ['disabled as text', { disabled: 'false', env: NONE }, 'option disabled is "false"; accepted: true or false'],
    ['readers as text', { readers: 'x', env: NONE }, 'option readers is "x"; accepted: an array of MetricReaders'],
    [
      'a reader that is not one',
      { readers: [new Writable()], env: NONE },
      'option readers[0] is an instance of Writable; accepted: an array of MetricReaders',
    ],
  ])('refuses %s, naming the option and what it accepts', async (_case, options, message) => {
    await expect(startBackupStats(options as never)).rejects.toThrow(
      new RegExp(`^backupstats: ${message.replace(/[().[\]]/g, '\\$&')}`),
    );
    await expect(startBackupStats(options as never)).rejects.toMatchObject({ code: 'BACKUPSTATS_INVALID_OPTION' });
  });
});

describe('the end of the process', () => {
  it.each([
    ['undefined', undefined, 'undefined'],
    ['an object without shutdown()', {}, 'an object'],
  ])('shutdownOnExit(%s) is refused', (_case, target, shown) => {
    expect(() => shutdownOnExit(target as never)).toThrow(
      new TypeError(
        `backupstats: shutdownOnExit target is ${shown}; accepted: something with a shutdown() that returns a promise, such as the stats of startBackupStats()`,
      ),
    );
    expectDocumentedCode(
      thrownBy(() => shutdownOnExit(target as never)),
      'BACKUPSTATS_INVALID_ARGUMENT',
    );
  });

  it('a signal list given as one string is refused, not read letter by letter', () => {
    expect(() => shutdownOnExit({ shutdown: async () => {} }, { signals: 'SIGTERM' as never })).toThrow(
      /^backupstats: shutdownOnExit option signals is "SIGTERM"; accepted: an array of signal names such as \["SIGTERM", "SIGINT"\]/,
    );
  });

  it('a signal or a timeout in the options of shutdownOnExit is refused as an option', () => {
    const target = { shutdown: async () => {} };
    expectDocumentedCode(
      thrownBy(() => shutdownOnExit(target, { signals: ['SIGKILL'] })),
      'BACKUPSTATS_INVALID_OPTION',
    );
    expectDocumentedCode(
      thrownBy(() => shutdownOnExit(target, { timeoutMillis: 0 })),
      'BACKUPSTATS_INVALID_OPTION',
    );
  });

  it("a timeout of the target's own is refused as part of the argument", () => {
    const target = { shutdown: async () => {}, shutdownTimeoutMillis: 0 };
    expectDocumentedCode(
      thrownBy(() => shutdownOnExit(target)),
      'BACKUPSTATS_INVALID_ARGUMENT',
    );
  });

  it.each([
    ['NaN', Number.NaN],
    ['a fraction', 1.5],
    ['text', '1'],
    ['out of range', 256],
  ])('exitAfterShutdown with an exit code that is %s is refused before anything is shut down', async (_case, code) => {
    const shutdown = vi.fn(async () => {});
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    try {
      await expect(exitAfterShutdown({ shutdown }, code as never)).rejects.toThrow(
        /^backupstats: exitAfterShutdown code is .*; accepted: an integer from 0 to 255 \(the exit code\), or nothing for process\.exitCode/,
      );
      await expect(exitAfterShutdown({ shutdown }, code as never)).rejects.toMatchObject({
        code: 'BACKUPSTATS_INVALID_ARGUMENT',
      });
      expect(shutdown).not.toHaveBeenCalled();
      expect(exit).not.toHaveBeenCalled();
    } finally {
      exit.mockRestore();
    }
  });
});
