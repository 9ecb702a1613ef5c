// A real Prometheus scrapes a job that records known values through the Prometheus exporter configured only
// from the environment; its HTTP API must return the exact totals per scope, under both namings, and label
// text must come back unchanged.
import { fileURLToPath } from 'node:url';
import { describe, expect, onTestFinished } from 'vitest';
import type { ScopeTotal } from '../fixtures/workload.mjs';
import { type FixtureProcess, startFixture } from '../support/child.js';
import { expectedSeries, expectScraped } from '../support/e2e-expected.js';
import { it } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';
import { prometheusBinary, requireE2E } from '../support/prometheus.js';
import {
  exposedNames,
  namesAfterRelabel,
  SCRAPE_SERIES,
  vitessCounterNames,
  vitessRelabelConfigs,
} from '../support/vitess-relabel.js';

const fixture = fileURLToPath(new URL('../fixtures/record-job.mjs', import.meta.url));

/** Starts the job with the Prometheus exporter on a free port and waits until it has recorded and flushed. */
async function scrapedJob(
  env: Record<string, string>,
): Promise<{ child: FixtureProcess; port: number; totals: ScopeTotal[] }> {
  const port = await freePort();
  const child = startFixture(fixture, {
    OTEL_METRICS_EXPORTER: 'prometheus',
    OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
    OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
    FIXTURE_BATCHES: '60',
    FIXTURE_AFTER: 'hold',
    ...env,
  });
  onTestFinished(() => child.kill());
  const recorded = await child.waitForEvent('totals');
  return { child, port, totals: recorded.totals as ScopeTotal[] };
}

async function expectConventionalTermination(child: FixtureProcess): Promise<void> {
  child.child.kill('SIGTERM');
  const end = await child.exited();
  expect(end.signal === 'SIGTERM' || end.code === 143, `exit ${JSON.stringify(end)}\n${child.stderr()}`).toBe(true);
}

describe.skipIf(!prometheusBinary && !requireE2E)(
  'a real Prometheus scraping a job set up from the environment',
  () => {
    const namings = [
      { naming: 'otel', prefix: '', env: {} },
      {
        naming: 'vitess',
        prefix: 'vtbackup_',
        env: { BACKUPSTATS_NAMING: 'vitess', BACKUPSTATS_METRIC_PREFIX: 'vtbackup_' },
      },
    ] as const;
    for (const { naming, prefix, env } of namings) {
      it(`${naming} naming: the exact totals per scope, under the documented Prometheus names`, async ({
        startPrometheus,
      }) => {
        const { child, port, totals } = await scrapedJob(env);
        const prometheus = await startPrometheus([`127.0.0.1:${port}`]);

        await expectScraped(prometheus, expectedSeries(totals, naming, prefix));
        await expectConventionalTermination(child);
      });
    }

    for (const prefix of ['vtbackup_', '']) {
      it(`vitess naming ${prefix === '' ? 'without a prefix' : `with the prefix ${prefix}`}, the relabel rule of docs/naming.md: the counters lose _total, no other series is renamed`, async ({
        startPrometheus,
      }) => {
        const { child, port, totals } = await scrapedJob({
          BACKUPSTATS_NAMING: 'vitess',
          ...(prefix === '' ? {} : { BACKUPSTATS_METRIC_PREFIX: prefix }),
        });
        // What the job exposes, before any relabelling.
        const exposed = await exposedNames(`http://127.0.0.1:${port}/metrics`);
        // The job records backups and restores: their six counters.
        const counters = vitessCounterNames(prefix, ['backup', 'restore']);
        for (const counter of counters) expect(exposed).toContain(`${counter}_total`);
        // The rule exactly as docs/naming.md gives it.
        const prometheus = await startPrometheus([`127.0.0.1:${port}`], {
          metricRelabelConfigs: vitessRelabelConfigs(),
        });

        // The six counters keep the exact totals, under the names Vitess dashboards query.
        const vitessNames = Object.fromEntries(counters.map((name) => [name, name]));
        await expectScraped(prometheus, expectedSeries(totals, 'vitess', prefix), vitessNames);
        // Every other series keeps its name: the names Prometheus holds for the job are the exposed ones with
        // exactly those six changed (and the series Prometheus adds for every scrape).
        const held = await prometheus.query('group by (__name__) ({job="backupstats"})');
        const names = held.map((s) => s.metric.__name__ ?? '').filter((name) => !SCRAPE_SERIES.includes(name));
        expect(names.sort()).toEqual(namesAfterRelabel(exposed, prefix));
        await expectConventionalTermination(child);
      });
    }

    it('label values with quotes, backslashes, newlines and non-ASCII text come back unchanged', async ({
      startPrometheus,
    }) => {
      const odd = {
        component: 'Say "cheese" \\o/',
        implementation: 'C:\\backups\\new\nline\ttab',
        operation: 'Écriture:写入:🚀 ëñ',
      };
      const { child, port, totals } = await scrapedJob({
        FIXTURE_LABELS: JSON.stringify({ 0: odd, 4: { component: '\\"\\n' } }),
      });
      // The odd values really were recorded, as given.
      expect(totals[0]).toMatchObject(odd);
      expect(totals[4]?.component).toBe('\\"\\n');
      const prometheus = await startPrometheus([`127.0.0.1:${port}`]);

      const scraped = await expectScraped(prometheus, expectedSeries(totals, 'otel'));
      const labels = (scraped.get('backup_operations_total') ?? []).map((s) => s.metric);
      expect(labels).toContainEqual(expect.objectContaining(odd));
      await expectConventionalTermination(child);
    });
  },
);
