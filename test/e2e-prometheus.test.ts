// A real Prometheus scrapes a job that records known values through the Prometheus exporter configured only
// from the environment; its HTTP API must return the exact totals per scope, under both namings, and label
// text must come back unchanged.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScopeTotal } from './fixtures/workload.mjs';
import { type FixtureProcess, startFixture } from './support/child.js';
import { type ExpectedSeries, expectedSeries, matches } from './support/e2e-expected.js';
import { freePort } from './support/free-port.js';
import { type PromSample, prometheusBinary, requireE2E, startPrometheus } from './support/prometheus.js';

const fixture = fileURLToPath(new URL('./fixtures/record-job.mjs', import.meta.url));

/**
 * What the OpenTelemetry Prometheus exporter calls each counter in the exposition: dots become underscores
 * and counters get `_total`; no unit suffix. This is the table the README documents.
 */
export const PROMETHEUS_NAMES: Readonly<Record<string, string>> = {
  'backup.operations': 'backup_operations_total',
  'backup.bytes': 'backup_bytes_total',
  'backup.time': 'backup_time_total',
  'restore.operations': 'restore_operations_total',
  'restore.bytes': 'restore_bytes_total',
  'restore.time': 'restore_time_total',
  vtbackup_backup_count: 'vtbackup_backup_count_total',
  vtbackup_backup_bytes: 'vtbackup_backup_bytes_total',
  vtbackup_backup_duration_nanoseconds: 'vtbackup_backup_duration_nanoseconds_total',
  vtbackup_restore_count: 'vtbackup_restore_count_total',
  vtbackup_restore_bytes: 'vtbackup_restore_bytes_total',
  vtbackup_restore_duration_nanoseconds: 'vtbackup_restore_duration_nanoseconds_total',
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function labelsKey(labels: Readonly<Record<string, string | undefined>>): string {
  return JSON.stringify([labels.component, labels.implementation, labels.operation]);
}

/** Starts the job with the Prometheus exporter on a free port and waits until it has recorded and flushed. */
async function scrapedJob(env: Record<string, string>): Promise<{ child: FixtureProcess; port: number; totals: ScopeTotal[] }> {
  const port = await freePort();
  const child = startFixture(fixture, {
    OTEL_METRICS_EXPORTER: 'prometheus',
    OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
    OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
    FIXTURE_BATCHES: '60',
    FIXTURE_AFTER: 'hold',
    ...env,
  });
  cleanups.push(() => child.kill());
  const recorded = await child.waitForEvent('totals');
  return { child, port, totals: recorded.totals as ScopeTotal[] };
}

/**
 * Waits until Prometheus holds every expected series with its exact value, then checks that it holds no
 * other series of those metric names. Returns the samples by Prometheus name.
 */
async function expectScraped(
  prometheus: Awaited<ReturnType<typeof startPrometheus>>,
  expected: readonly ExpectedSeries[],
): Promise<Map<string, PromSample[]>> {
  const byName = new Map<string, ExpectedSeries[]>();
  for (const series of expected) {
    const promName = PROMETHEUS_NAMES[series.metric];
    expect(promName, `no Prometheus name known for ${series.metric}`).toBeDefined();
    byName.set(promName as string, [...(byName.get(promName as string) ?? []), series]);
  }
  const scraped = new Map<string, PromSample[]>();
  for (const [promName, want] of byName) {
    const exact = (samples: PromSample[]) =>
      want.every((series) => {
        const sample = samples.find((s) => labelsKey(s.metric) === labelsKey(series.labels));
        return matches(series, sample?.value);
      });
    let samples: PromSample[];
    try {
      samples = await prometheus.waitForSamples(`{__name__="${promName}"}`, exact);
    } catch (error) {
      throw new Error(`${promName}: ${(error as Error).message}\nexpected: ${JSON.stringify(want)}`);
    }
    expect(samples.map((s) => labelsKey(s.metric)).sort()).toEqual(want.map((s) => labelsKey(s.labels)).sort());
    scraped.set(promName, samples);
  }
  return scraped;
}

async function expectConventionalTermination(child: FixtureProcess): Promise<void> {
  child.child.kill('SIGTERM');
  const end = await child.exited();
  expect(end.signal === 'SIGTERM' || end.code === 143, `exit ${JSON.stringify(end)}\n${child.stderr()}`).toBe(true);
}

describe.skipIf(!prometheusBinary && !requireE2E)('a real Prometheus scraping a job set up from the environment', () => {
  const namings = [
    { naming: 'otel', prefix: '', env: {} },
    { naming: 'vitess', prefix: 'vtbackup_', env: { BACKUPSTATS_NAMING: 'vitess', BACKUPSTATS_METRIC_PREFIX: 'vtbackup_' } },
  ] as const;
  for (const { naming, prefix, env } of namings) {
    it(`${naming} naming: the exact totals per scope, under the documented Prometheus names`, async () => {
      const { child, port, totals } = await scrapedJob(env);
      const prometheus = await startPrometheus([`127.0.0.1:${port}`]);
      cleanups.push(() => prometheus.stop());

      const scraped = await expectScraped(prometheus, expectedSeries(totals, naming, prefix));
      // Print one full label set per name, for the documentation of what a scrape looks like.
      for (const [name, samples] of scraped) console.log(`${name} ${JSON.stringify(samples[0]?.metric)}`);
      await expectConventionalTermination(child);
    });
  }

  it('label values with quotes, backslashes, newlines and non-ASCII text come back unchanged', async () => {
    const odd = {
      component: 'Say "cheese" \\o/',
      implementation: 'C:\\backups\\new\nline\ttab',
      operation: 'Écriture:写入:🚀 ëñ',
    };
    const { child, port, totals } = await scrapedJob({ FIXTURE_LABELS: JSON.stringify({ 0: odd, 4: { component: '\\"\\n' } }) });
    // The odd values really were recorded, as given.
    expect(totals[0]).toMatchObject(odd);
    expect(totals[4]?.component).toBe('\\"\\n');
    const prometheus = await startPrometheus([`127.0.0.1:${port}`]);
    cleanups.push(() => prometheus.stop());

    const scraped = await expectScraped(prometheus, expectedSeries(totals, 'otel'));
    const labels = (scraped.get('backup_operations_total') ?? []).map((s) => s.metric);
    expect(labels).toContainEqual(expect.objectContaining(odd));
    await expectConventionalTermination(child);
  });
});
