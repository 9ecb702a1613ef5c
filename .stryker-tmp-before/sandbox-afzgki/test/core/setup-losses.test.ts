// @ts-nocheck
// What set-up says, in process, when a shutdown leaves recorded numbers behind: through the diag logger when one is
// set, else on stderr (so that the owner of a job learns that nothing was exported), and nowhere when `quiet`. The
// child-process side (no logger, OTEL_LOG_LEVEL, BACKUPSTATS_QUIET) is test/exit/said-without-logger.test.ts.
import { diag, type MeterProvider } from '@opentelemetry/api';
import { MetricReader } from '@opentelemetry/sdk-metrics';
import { startBackupStats } from 'backupstats/setup';
import { describe, expect, vi } from 'vitest';
import { refusingCollector } from '../support/dead-collector.js';
import { it } from '../support/fixtures.js';

/** A reader given in `readers` whose shutdown never ends: it alone holds the provider's shutdown. */
class StuckReader extends MetricReader {
  protected onShutdown(): Promise<void> {
    return new Promise(() => {});
  }
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

/** No exporter of set-up's own (none can be blamed); a short deadline. */
const STUCK_ENV = { OTEL_METRICS_EXPORTER: 'none', OTEL_METRIC_EXPORT_TIMEOUT: '50' };
const PROVIDER_LATE =
  "backupstats: the MeterProvider's shutdown did not finish within 50 ms (OTEL_METRIC_EXPORT_TIMEOUT); it was left behind";

/** What is written to stderr during the test (and not shown). */
function captureStderr(onTestFinished: (fn: () => void) => void): { readonly lines: () => string[] } {
  const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  onTestFinished(() => write.mockRestore());
  return { lines: () => write.mock.calls.map(([chunk]) => String(chunk)) };
}

/** No diag logger, as in a program that set none. */
function withoutLogger(): void {
  diag.disable();
}

describe("a provider's shutdown that does not finish within the deadline", () => {
  it('is said through the diag logger when one is set, and not on stderr', async ({ diagnostics, onTestFinished }) => {
    const stderr = captureStderr(onTestFinished);
    const stats = await startBackupStats({ env: STUCK_ENV, readers: [new StuckReader()] });
    await stats.shutdown();
    expect(diagnostics.messages).toEqual([PROVIDER_LATE]);
    expect(stderr.lines()).toEqual([]);
  });

  it('is said on stderr, as one line, when no diag logger is set', async ({ onTestFinished }) => {
    withoutLogger();
    const stderr = captureStderr(onTestFinished);
    const stats = await startBackupStats({ env: STUCK_ENV, readers: [new StuckReader()] });
    await stats.shutdown();
    expect(stderr.lines()).toEqual([`${PROVIDER_LATE}\n`]);
  });

  it('is said nowhere when quiet, by the option or by BACKUPSTATS_QUIET', async ({ onTestFinished }) => {
    withoutLogger();
    const stderr = captureStderr(onTestFinished);
    const byOption = await startBackupStats({ env: STUCK_ENV, readers: [new StuckReader()], quiet: true });
    await byOption.shutdown();
    const byVariable = await startBackupStats({
      env: { ...STUCK_ENV, BACKUPSTATS_QUIET: 'true' },
      readers: [new StuckReader()],
    });
    await byVariable.shutdown();
    expect(stderr.lines()).toEqual([]);
  });

  it('is said on stderr in a process where nothing has used the OpenTelemetry API global yet', async ({
    onTestFinished,
  }) => {
    const key = Symbol.for('opentelemetry.js.api.1');
    const global = globalThis as Record<symbol, unknown>;
    const saved = global[key];
    onTestFinished(() => {
      global[key] = saved;
    });
    delete global[key];
    const stderr = captureStderr(onTestFinished);
    const stats = await startBackupStats({ env: STUCK_ENV, readers: [new StuckReader()] });
    await stats.shutdown();
    expect(stderr.lines()).toEqual([`${PROVIDER_LATE}\n`]);
  });
});

/** OTLP over HTTP/JSON to `url`, where nothing answers, with a shutdown deadline of 200 ms. */
function toNowhere(url: string): Record<string, string> {
  return {
    OTEL_METRICS_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_EXPORTER_OTLP_ENDPOINT: url,
    OTEL_METRIC_EXPORT_TIMEOUT: '200',
  };
}

describe('a final export that did not reach the backend', () => {
  it("is said through the diag logger in the exporter's own words, instead of the provider's lateness", async ({
    diagnostics,
    onTestFinished,
  }) => {
    const stderr = captureStderr(onTestFinished);
    const dead = await refusingCollector();
    const stats = await startBackupStats({ env: toNowhere(dead.url) });
    stats.backup.timedIncrement(1);
    await stats.shutdown();
    // Refused at once or still retrying at the deadline: which one depends on the exporter's retries, not on set-up.
    // (The SDK's reader says its own error too.)
    expect(diagnostics.messages.filter((message) => message.startsWith('backupstats:'))).toEqual([
      expect.stringMatching(
        new RegExp(
          `^backupstats: the OTLP exporter \\(http/json, ${dead.url}/v1/metrics\\) did not deliver the final export \\(it (failed: .+|was still under way when the shutdown's deadline of 200 ms \\(OTEL_METRIC_EXPORT_TIMEOUT\\) passed)\\); what was recorded since the start \\(no export was ever delivered\\) did not reach the backend$`,
        ),
      ),
    ]);
    expect(stderr.lines()).toEqual([]);
  });

  it('is said on stderr, the same sentence, when no diag logger is set', async ({ onTestFinished }) => {
    withoutLogger();
    const stderr = captureStderr(onTestFinished);
    const dead = await refusingCollector();
    const stats = await startBackupStats({ env: toNowhere(dead.url) });
    stats.restore.timedIncrement(1);
    await stats.shutdown();
    expect(stderr.lines()).toEqual([
      expect.stringMatching(
        /^backupstats: the OTLP exporter \(http\/json, .+\) did not deliver the final export .+\n$/,
      ),
    ]);
  });
});

describe("a given MeterProvider whose forceFlush does not finish within set-up's 30 s", () => {
  /** A provider whose meters are real and whose forceFlush never ends. */
  const stalled = (real: MeterProvider): MeterProvider =>
    ({
      getMeter: (...args: Parameters<MeterProvider['getMeter']>) => real.getMeter(...args),
      forceFlush: () => new Promise<void>(() => {}),
    }) as MeterProvider;

  const LATE =
    "backupstats: the given MeterProvider's forceFlush did not finish within 30000 ms; what it had not exported is lost";

  it('is said through the diag logger, and shutdown resolves', async ({ harness, diagnostics, onTestFinished }) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const stats = await startBackupStats({ meterProvider: stalled(harness.provider), env: {} });
    const closing = stats.shutdown();
    await vi.advanceTimersByTimeAsync(30_000);
    await closing;
    expect(diagnostics.messages).toEqual([LATE]);
  });

  it('is said on stderr without a diag logger, and not at all when quiet', async ({ harness, onTestFinished }) => {
    withoutLogger();
    const stderr = captureStderr(onTestFinished);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    for (const quiet of [false, true]) {
      const stats = await startBackupStats({ meterProvider: stalled(harness.provider), env: {}, quiet });
      const closing = stats.shutdown();
      await vi.advanceTimersByTimeAsync(30_000);
      await closing;
    }
    expect(stderr.lines()).toEqual([`${LATE}\n`]);
  });
});
