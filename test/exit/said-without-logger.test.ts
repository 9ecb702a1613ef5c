// A job whose collector is down must learn that nothing was exported, without configuring anything: with no diag
// logger set, the final export that failed is reported once on stderr; BACKUPSTATS_QUIET silences it;
// OTEL_LOG_LEVEL installs a console logger at that level, which reports it instead.
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';
import { refusingCollector } from '../support/dead-collector.js';
import { it } from '../support/fixtures.js';

const fixture = fileURLToPath(new URL('../fixtures/quiet-job.mjs', import.meta.url));
const UNDELIVERED = /backupstats: the OTLP exporter \(http\/protobuf, .+\) did not deliver the final export/g;
/** A hang detector for the child, far above the 1 s deadline under test; not a timing measurement. */
const HANG_MS = 20_000;

describe.concurrent('the final export failed, with no diag logger set', () => {
  const cases = [
    ['nothing set: reported once on stderr', {}, 1],
    ['BACKUPSTATS_QUIET=true: not said', { BACKUPSTATS_QUIET: 'true' }, 0],
    ['OTEL_LOG_LEVEL=error: reported once, through the console logger it installs', { OTEL_LOG_LEVEL: 'error' }, 1],
    ['OTEL_LOG_LEVEL=none: not said (the level the user chose)', { OTEL_LOG_LEVEL: 'none' }, 0],
  ] as const;
  for (const [name, extra, times] of cases) {
    it(name, async ({ expect, onTestFinished, startFixture }) => {
      const dead = await refusingCollector();
      onTestFinished(() => dead.stop());
      const child = startFixture(fixture, {
        OTEL_METRICS_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_ENDPOINT: dead.url,
        OTEL_METRIC_EXPORT_TIMEOUT: '1000',
        OTEL_METRIC_EXPORT_INTERVAL: '600000',
        ...extra,
      });
      expect(await child.exited(HANG_MS), child.stderr()).toEqual({ code: 0, signal: null });
      expect(child.stderr().match(UNDELIVERED) ?? [], child.stderr()).toHaveLength(times);
    });
  }
});
