// @ts-nocheck
// The Pushgateway exporter under the same deadline as OTLP: whatever the Pushgateway does (accepts connections and
// never answers, or is not there), a job ends within OTEL_METRIC_EXPORT_TIMEOUT plus the margin, says through diag
// that the Pushgateway exporter did not deliver the final export (naming its group, never a password), and a
// finished job is never kept alive by a push under way.
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';
import { type DeadCollector, refusingCollector, startStalledCollector } from '../support/dead-collector.js';
import { it } from '../support/fixtures.js';

const fixture = fileURLToPath(new URL('../fixtures/exit-job.mjs', import.meta.url));

/**
 * How long a test waits for the child to end: the deadline under test is 1 s plus the margin, while a push without
 * a timeout holds a stalled connection, and so the process, forever. A hang detector, not a timing measurement.
 */
const HANG_MS = 20_000;

const UNDELIVERED =
  /backupstats: the Pushgateway exporter \(POST http:\/\/127\.0\.0\.1:\d+\/metrics\/job\/deadline-job\/instance\/db-1\) did not deliver the final export/;

type Cleanup = (fn: () => Promise<void>) => void;

async function gateway(kind: 'stalled' | 'refusing', cleanup: Cleanup): Promise<DeadCollector> {
  const dead = kind === 'stalled' ? await startStalledCollector() : await refusingCollector();
  cleanup(() => dead.stop());
  return dead;
}

function pushgateway(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    OTEL_METRICS_EXPORTER: 'pushgateway',
    BACKUPSTATS_PUSHGATEWAY_URL: url,
    OTEL_SERVICE_NAME: 'deadline-job',
    OTEL_RESOURCE_ATTRIBUTES: 'service.instance.id=db-1',
    OTEL_METRIC_EXPORT_TIMEOUT: '1000',
    OTEL_METRIC_EXPORT_INTERVAL: '600000',
    ...extra,
  };
}

// The cases wait on the deadline, not on the CPU: they run side by side.
describe.concurrent('OTEL_METRIC_EXPORT_TIMEOUT bounds the final push to the Pushgateway', () => {
  it('stalled Pushgateway, SIGTERM: the job dies by SIGTERM within the deadline and says what it could not deliver', async ({
    expect,
    onTestFinished,
    startFixture,
  }) => {
    const dead = await gateway('stalled', onTestFinished);
    const child = startFixture(fixture, { ...pushgateway(dead.url), FIXTURE_END: 'signal' });
    await child.waitForEvent('ready');
    child.child.kill('SIGTERM');
    expect(await child.exited(HANG_MS), child.stderr()).toEqual({ code: null, signal: 'SIGTERM' });
    expect(dead.connections).toBeGreaterThan(0);
    expect(child.stderr()).toMatch(UNDELIVERED);
    expect(child.stderr()).toMatch(/1000 ms/);
  });

  it('stalled Pushgateway reached with user:password: the job returns, shutdownOnExit ends it with code 0, and no message shows the password', async ({
    expect,
    onTestFinished,
    startFixture,
  }) => {
    const dead = await gateway('stalled', onTestFinished);
    const url = dead.url.replace('http://', 'http://backup-user:t0p-s3cret@');
    const child = startFixture(fixture, { ...pushgateway(url), FIXTURE_END: 'return' });
    expect(await child.exited(HANG_MS), child.stderr()).toEqual({ code: 0, signal: null });
    expect(child.stderr()).toMatch(UNDELIVERED);
    for (const secret of ['t0p-s3cret', 'backup-user']) expect(child.stderr()).not.toContain(secret);
  });

  it('Pushgateway down: exitAfterShutdown exits with its code and says the connection was refused', async ({
    expect,
    onTestFinished,
    startFixture,
  }) => {
    const dead = await gateway('refusing', onTestFinished);
    const child = startFixture(fixture, { ...pushgateway(dead.url), FIXTURE_END: 'exit-after' });
    expect(await child.exited(HANG_MS), child.stderr()).toEqual({ code: 7, signal: null });
    expect(child.stderr()).toMatch(UNDELIVERED);
    expect(child.stderr()).toMatch(
      /it failed: the push to http:\/\/127\.0\.0\.1:\d+\/\S+ failed: connect ECONNREFUSED/,
    );
  });

  for (const down of ['stalled', 'refusing'] as const) {
    it(`${down} Pushgateway, pushes every 100 ms: the job without shutdownOnExit exits 0, no push under way holds it`, async ({
      expect,
      onTestFinished,
      startFixture,
    }) => {
      const dead = await gateway(down, onTestFinished);
      // The job lasts many intervals: pushes start, hang or fail, time out; its end finds one under way.
      const env = pushgateway(dead.url, { OTEL_METRIC_EXPORT_INTERVAL: '100', OTEL_METRIC_EXPORT_TIMEOUT: '100' });
      const child = startFixture(fixture, { ...env, FIXTURE_END: 'bare', FIXTURE_JOB_MS: '1500' });
      expect(await child.exited(HANG_MS), child.stderr()).toEqual({ code: 0, signal: null });
      if (down === 'stalled') expect(dead.connections).toBeGreaterThan(0);
    });
  }
});
