// A job whose collector is down must learn that nothing was exported, without configuring anything: with no diag
// logger set, the final export that failed is reported once on stderr; BACKUPSTATS_QUIET silences it;
// OTEL_LOG_LEVEL installs a console logger at that level, which reports it instead.
//
// The two cases with no diag logger run in one child: stats of each case's own, each exporting to a collector of
// its own, whose address the message names, so each case counts the messages about its own exporter. A case with
// OTEL_LOG_LEVEL has a child of its own: the console logger it installs is the whole process's.
import { fileURLToPath } from 'node:url';
import { afterAll, describe } from 'vitest';
import { type FixtureProcess, startFixture } from '../support/child.js';
import { refusingCollector } from '../support/dead-collector.js';
import { it } from '../support/fixtures.js';

const fixture = fileURLToPath(new URL('../fixtures/quiet-job.mjs', import.meta.url));
const UNDELIVERED = /backupstats: the OTLP exporter \(http\/protobuf, .+\) did not deliver the final export/g;
/** A hang detector for the child, far above the 1 s deadline under test; not a timing measurement. */
const HANG_MS = 20_000;
const BASE = {
  OTEL_METRICS_EXPORTER: 'otlp',
  OTEL_METRIC_EXPORT_TIMEOUT: '1000',
  OTEL_METRIC_EXPORT_INTERVAL: '600000',
};

/** The messages about the exporter to `url`. */
function undeliveredTo(stderr: string, url: string): string[] {
  return stderr.split('\n').filter((line) => line.match(UNDELIVERED) !== null && line.includes(`, ${url}/v1/metrics)`));
}

const WITHOUT_LOGGER = [
  ['nothing set: reported once on stderr', {}, 1],
  ['BACKUPSTATS_QUIET=true: not said', { BACKUPSTATS_QUIET: 'true' }, 0],
] as const;

let shared: Promise<{ child: FixtureProcess; urls: string[] }> | undefined;
/** The child of the cases with no diag logger, and each case's collector; started by the first test that asks. */
function withoutLogger(): Promise<{ child: FixtureProcess; urls: string[] }> {
  shared ??= (async () => {
    const urls: string[] = [];
    while (urls.length < WITHOUT_LOGGER.length) {
      const { url } = await refusingCollector();
      if (!urls.includes(url)) urls.push(url);
    }
    const jobs = WITHOUT_LOGGER.map(([, extra], i) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: urls[i], ...extra }));
    return { child: startFixture(fixture, { ...BASE, FIXTURE_JOBS: JSON.stringify(jobs) }), urls };
  })();
  return shared;
}
afterAll(async () => {
  await (await shared)?.child.kill();
});

describe.concurrent('the final export failed, with no diag logger set', () => {
  for (const [index, [name, , times]] of WITHOUT_LOGGER.entries()) {
    it(name, async ({ expect }) => {
      const { child, urls } = await withoutLogger();
      expect(await child.exited(HANG_MS), child.stderr()).toEqual({ code: 0, signal: null });
      expect(undeliveredTo(child.stderr(), urls[index] as string), child.stderr()).toHaveLength(times);
    });
  }

  const withLogger = [
    ['OTEL_LOG_LEVEL=error: reported once, through the console logger it installs', { OTEL_LOG_LEVEL: 'error' }, 1],
    ['OTEL_LOG_LEVEL=none: not said (the level the user chose)', { OTEL_LOG_LEVEL: 'none' }, 0],
  ] as const;
  for (const [name, extra, times] of withLogger) {
    it(name, async ({ expect, onTestFinished, startFixture }) => {
      const dead = await refusingCollector();
      onTestFinished(() => dead.stop());
      const child = startFixture(fixture, { ...BASE, OTEL_EXPORTER_OTLP_ENDPOINT: dead.url, ...extra });
      expect(await child.exited(HANG_MS), child.stderr()).toEqual({ code: 0, signal: null });
      expect(child.stderr().match(UNDELIVERED) ?? [], child.stderr()).toHaveLength(times);
    });
  }
});
