// The end of a job has a deadline: whatever the collector does, a shutdown ends within OTEL_METRIC_EXPORT_TIMEOUT
// plus a small margin and says through diag what it could not deliver, and a finished job is never kept alive by
// the periodic exports. Each case runs the job as a child process against a collector of the test's own on
// 127.0.0.1 that accepts connections and never answers, or that refuses them.
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';
import { type DeadCollector, refusingCollector, startStalledCollector } from '../support/dead-collector.js';
import { it } from '../support/fixtures.js';

const fixture = fileURLToPath(new URL('../fixtures/exit-job.mjs', import.meta.url));

/**
 * How long a test waits for the child to end. The deadline under test is 1 s (plus the documented margin); a
 * broken end holds the child 600 s (the exporters' own request timeout set below) or forever, so 20 s tells the
 * two apart with room for a loaded machine. It is a hang detector, not a timing measurement.
 */
const HANG_MS = 20_000;

/**
 * The exporters' own request timeout, far beyond the test: the OTLP exporters read it from the environment
 * when set-up does not pass theirs, and only OTEL_METRIC_EXPORT_TIMEOUT passed down keeps an export shorter.
 */
const SLOW_EXPORTER = { OTEL_EXPORTER_OTLP_TIMEOUT: '600000' };

const PROTOCOLS = ['http/protobuf', 'http/json', 'grpc'] as const;
const UNDELIVERED = /backupstats: the OTLP exporter \(.+\) did not deliver the final export/;

/** The test context's onTestFinished (the tests run concurrently, so each registers on its own context). */
type Cleanup = (fn: () => Promise<void>) => void;

async function collector(kind: 'stalled' | 'refusing', cleanup: Cleanup): Promise<DeadCollector> {
  const dead = kind === 'stalled' ? await startStalledCollector() : await refusingCollector();
  cleanup(() => dead.stop());
  return dead;
}

function otlp(dead: DeadCollector, protocol: string, extra: Record<string, string>): Record<string, string> {
  return {
    OTEL_METRICS_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
    OTEL_EXPORTER_OTLP_ENDPOINT: dead.url,
    ...extra,
  };
}

// The cases wait on the deadline, not on the CPU: they run side by side.
describe.concurrent('OTEL_METRIC_EXPORT_TIMEOUT bounds the final export, over every OTLP protocol', () => {
  const deadline = { OTEL_METRIC_EXPORT_TIMEOUT: '1000', OTEL_METRIC_EXPORT_INTERVAL: '600000', ...SLOW_EXPORTER };

  for (const protocol of PROTOCOLS) {
    it(`${protocol}, stalled collector, SIGTERM: the job dies by SIGTERM within the deadline and says what it could not deliver`, async ({
      expect,
      onTestFinished,
      startFixture,
    }) => {
      const dead = await collector('stalled', onTestFinished);
      const child = startFixture(fixture, { ...otlp(dead, protocol, deadline), FIXTURE_END: 'signal' });
      await child.waitForEvent('ready');
      child.child.kill('SIGTERM');
      expect(await child.exited(HANG_MS), child.stderr()).toEqual({ code: null, signal: 'SIGTERM' });
      expect(dead.connections).toBeGreaterThan(0);
      expect(child.stderr()).toMatch(UNDELIVERED);
      expect(child.stderr()).toMatch(/deadline of 1000 ms \(OTEL_METRIC_EXPORT_TIMEOUT\)/);
    });
  }

  for (const protocol of ['http/protobuf', 'grpc'] as const) {
    it(`${protocol}, stalled collector: exitAfterShutdown exits with its code within the deadline`, async ({
      expect,
      onTestFinished,
      startFixture,
    }) => {
      const dead = await collector('stalled', onTestFinished);
      const child = startFixture(fixture, { ...otlp(dead, protocol, deadline), FIXTURE_END: 'exit-after' });
      expect(await child.exited(HANG_MS), child.stderr()).toEqual({ code: 7, signal: null });
      expect(child.stderr()).toMatch(UNDELIVERED);
    });
  }

  it('http/protobuf, stalled collector, the job returns: shutdownOnExit ends it with code 0 within the deadline', async ({
    expect,
    onTestFinished,
    startFixture,
  }) => {
    const dead = await collector('stalled', onTestFinished);
    const child = startFixture(fixture, { ...otlp(dead, 'http/protobuf', deadline), FIXTURE_END: 'return' });
    expect(await child.exited(HANG_MS), child.stderr()).toEqual({ code: 0, signal: null });
    expect(child.stderr()).toMatch(UNDELIVERED);
  });

  it('a collector that answers gets the final export and nothing is reported undelivered', async ({
    expect,
    startFixture,
    startReceiver,
  }) => {
    // The same deadline and the same slow exporter default: the deadline costs nothing when the backend is up.
    const receiver = await startReceiver('http');
    const child = startFixture(fixture, {
      OTEL_METRICS_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      ...deadline,
      FIXTURE_END: 'signal',
    });
    await child.waitForEvent('ready');
    child.child.kill('SIGTERM');
    expect(await child.exited(HANG_MS), child.stderr()).toEqual({ code: null, signal: 'SIGTERM' });
    expect(receiver.totals().get('backup.bytes{BackupEngine,Part1,Source:Read}')).toBe(4096);
    expect(child.stderr()).not.toMatch(/did not deliver/);
  });
});

// The cases wait on timers, not on the CPU: they run side by side.
describe.concurrent('a finished job exits while the collector is down, whatever the export interval', () => {
  // The default export timeout shrinks to a short interval; the exporters' own default (10 s) is left as is.
  const cases = [
    { protocol: 'http/protobuf', interval: '1000', down: 'stalled' },
    { protocol: 'http/protobuf', interval: '1000', down: 'refusing' },
    { protocol: 'http/protobuf', interval: '100', down: 'stalled' },
    { protocol: 'http/protobuf', interval: '100', down: 'refusing' },
    { protocol: 'grpc', interval: '100', down: 'stalled' },
    { protocol: 'grpc', interval: '100', down: 'refusing' },
  ] as const;
  for (const { protocol, interval, down } of cases) {
    it(`${protocol}, interval ${interval} ms, ${down} collector: the job without shutdownOnExit exits 0 after a few exports`, async ({
      expect,
      onTestFinished,
      startFixture,
    }) => {
      const dead = await collector(down, onTestFinished);
      // The job lasts two and a half intervals, so that periodic exports have started, failed and been retried; no
      // longer, as every export the child makes costs it CPU.
      const env = {
        ...otlp(dead, protocol, { OTEL_METRIC_EXPORT_INTERVAL: interval }),
        FIXTURE_END: 'bare',
        FIXTURE_JOB_MS: String(Number(interval) * 2.5),
      };
      const child = startFixture(fixture, env);
      expect(await child.exited(HANG_MS), child.stderr()).toEqual({ code: 0, signal: null });
      if (down === 'stalled') expect(dead.connections).toBeGreaterThan(0);
    });
  }

  it('http/protobuf, interval 100 ms, stalled collector, shutdownOnExit: the final export gives up at the deadline and the job exits 0', async ({
    expect,
    onTestFinished,
    startFixture,
  }) => {
    const dead = await collector('stalled', onTestFinished);
    // Two and a half intervals of periodic exports, then the final one.
    const env = {
      ...otlp(dead, 'http/protobuf', { OTEL_METRIC_EXPORT_INTERVAL: '100' }),
      FIXTURE_END: 'return',
      FIXTURE_JOB_MS: '250',
    };
    const child = startFixture(fixture, env);
    expect(await child.exited(HANG_MS), child.stderr()).toEqual({ code: 0, signal: null });
    expect(child.stderr()).toMatch(UNDELIVERED);
  });
});
