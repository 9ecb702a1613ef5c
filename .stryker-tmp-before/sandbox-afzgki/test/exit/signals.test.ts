// @ts-nocheck
// Several parties listen to SIGTERM / SIGINT in one process: two shutdownOnExit registrations, or another
// library. None of them may swallow a signal: every registered shutdown runs, the process ends, and a repeated
// signal (Ctrl-C twice) ends it at once.
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { type FixtureProcess, startFixture } from '../support/child.js';
import { startStalledCollector } from '../support/dead-collector.js';
import { test } from '../support/fixtures.js';

const fixture = fileURLToPath(new URL('../fixtures/exit-job.mjs', import.meta.url));

/**
 * How long a test waits for the child to end. The deadline under test is OTEL_METRIC_EXPORT_TIMEOUT (1 s) plus
 * the 1 s margin; a swallowed signal holds the child forever. 20 s is a hang detector with room for a loaded
 * machine, not a timing measurement.
 */
const HANG_MS = 20_000;

const CONSOLE = {
  OTEL_METRICS_EXPORTER: 'console',
  OTEL_METRIC_EXPORT_INTERVAL: '600000',
  OTEL_METRIC_EXPORT_TIMEOUT: '1000',
};
const SHELL_CODE = { SIGTERM: 143, SIGINT: 130 } as const;

function job(env: Record<string, string>): FixtureProcess {
  const child = startFixture(fixture, env);
  onTestFinished(() => child.kill());
  return child;
}

/** Both stats' final numbers were printed by their console exporters. */
function expectBothExported(child: FixtureProcess, check: typeof expect = expect): void {
  check(child.stdout()).toContain("implementation: 'Part1'");
  check(child.stdout()).toContain("implementation: 'Part2'");
}

describe('two shutdownOnExit registrations in one process', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal}: both stats export their final numbers and the process dies by ${signal}`, async () => {
      const child = job({ ...CONSOLE, FIXTURE_STATS: '2', FIXTURE_END: 'signal' });
      await child.waitForEvent('ready');
      child.child.kill(signal);
      expect(await child.exited(HANG_MS), child.stderr()).toEqual({ code: null, signal });
      expectBothExported(child);
    });
  }

  it('the job returns: both stats export and the process exits 0', async () => {
    const child = job({ ...CONSOLE, FIXTURE_STATS: '2', FIXTURE_END: 'return' });
    expect(await child.exited(HANG_MS), child.stderr()).toEqual({ code: 0, signal: null });
    expectBothExported(child);
  });
});

describe('another library listens to the same signals', () => {
  // These wait for the deadline, not on the CPU: they run side by side.
  for (const foreign of ['silent', 'polite'] as const) {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      test.concurrent(`a ${foreign} listener and ${signal}: its listener runs, the stats export, and the process still ends by ${signal}`, async ({
        expect,
        startFixture,
      }) => {
        const child = startFixture(fixture, {
          ...CONSOLE,
          FIXTURE_STATS: '2',
          FIXTURE_END: 'signal',
          FIXTURE_FOREIGN: foreign,
        });
        await child.waitForEvent('ready');
        child.child.kill(signal);
        const end = await child.exited(HANG_MS);
        expect(
          end.signal === signal || end.code === SHELL_CODE[signal],
          `${JSON.stringify(end)}\n${child.stderr()}`,
        ).toBe(true);
        expect(await child.waitForEvent('foreign')).toMatchObject({ signal });
        expectBothExported(child, expect);
      });
    }
  }

  it('Ctrl-C twice while the final export hangs ends the process at once, even with another listener', async () => {
    const dead = await startStalledCollector();
    onTestFinished(() => dead.stop());
    const child = job({
      OTEL_METRICS_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: dead.url,
      OTEL_METRIC_EXPORT_INTERVAL: '600000',
      // A deadline far beyond the hang detector: only the second signal can end the process in time.
      OTEL_METRIC_EXPORT_TIMEOUT: '120000',
      OTEL_EXPORTER_OTLP_TIMEOUT: '120000',
      FIXTURE_END: 'signal',
      FIXTURE_FOREIGN: 'silent',
    });
    await child.waitForEvent('ready');
    child.child.kill('SIGINT');
    // The final export has reached the collector, which does not answer: the shutdown is under way.
    await expect.poll(() => dead.connections, { timeout: HANG_MS }).toBeGreaterThan(0);
    child.child.kill('SIGINT');
    const end = await child.exited(HANG_MS);
    expect(end.signal === 'SIGINT' || end.code === 130, `${JSON.stringify(end)}\n${child.stderr()}`).toBe(true);
  });
});
