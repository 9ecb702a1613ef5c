// A fleet of batch jobs: 6 real child processes of the same job at once, each configured by the environment alone
// and told apart only by its service.instance.id, each recording a workload of its own size (so that a group
// holding another instance's numbers shows). Against the real Pushgateway and against the OTLP receiver of the
// tests: every instance's totals exact, the fleet's totals exact, and no group overwritten by another instance.
//
// Six show what twenty would: a group keyed by anything but the instance, or two instances' pushes landing in one
// group, shows as soon as two instances with different totals export at overlapping times, and six do, all started
// at once, two of them exporting periodically while the others end and push. Each more process only repeats that
// and costs about 0.4 s of CPU to start.
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import type { ScopeTotal } from '../fixtures/workload.mjs';
import { type ExpectedSeries, expectedSeries, matches, mismatches, PROMETHEUS_NAMES } from '../support/e2e-expected.js';
import { it } from '../support/fixtures.js';
import { requireE2E } from '../support/prometheus.js';
import { hasLabels } from '../support/pushgateway/exposition.js';
import { groupMismatches } from '../support/pushgateway/group-series.js';
import { pushgatewayBinary } from '../support/pushgateway/server.js';
import { seriesKey } from '../support/series-key.js';

const fixture = fileURLToPath(new URL('../fixtures/record-job.mjs', import.meta.url));
const FLEET = 6;
const JOB = 'fleet-backup';
const instances = Array.from({ length: FLEET }, (_, i) => `fleet-${String(i + 1).padStart(2, '0')}`);

type StartFixture = typeof import('../support/child.js').startFixture;

/**
 * Starts the whole fleet at once with `env` and resolves, once every process has ended normally, with what each
 * recorded, by instance. Instance n records n batches of 3 measurements per scope, 700 ms apart: the last two
 * (3.5 s and 4.2 s) also export at 3 s meanwhile, and all of them at their end, while the others still run. The
 * interval is the deadline of each export too: processes starting at once on a loaded machine need it long.
 */
async function runFleet(startFixture: StartFixture, env: Record<string, string>): Promise<Map<string, ScopeTotal[]>> {
  const children = instances.map((instance, i) =>
    startFixture(fixture, {
      ...env,
      OTEL_SERVICE_NAME: JOB,
      OTEL_RESOURCE_ATTRIBUTES: `service.instance.id=${instance}`,
      OTEL_METRIC_EXPORT_INTERVAL: '3000',
      FIXTURE_BATCHES: String(i + 1),
      FIXTURE_PER_BATCH: '3',
      FIXTURE_PAUSE_MS: '700',
    }),
  );
  const recorded = new Map<string, ScopeTotal[]>();
  await Promise.all(
    children.map(async (child, i) => {
      const totals = await child.waitForEvent('totals', 120_000);
      // A hang detector for a loaded machine, not a timing.
      expect(await child.exited(120_000), child.stderr()).toEqual({ code: 0, signal: null });
      expect(child.stderr()).toBe('');
      recorded.set(instances[i] as string, totals.totals as ScopeTotal[]);
    }),
  );
  return recorded;
}

/** The fleet's totals: every instance's added up, scope by scope. */
function fleetTotals(recorded: Map<string, ScopeTotal[]>): ScopeTotal[] {
  const sums = new Map<string, ScopeTotal>();
  for (const totals of recorded.values()) {
    for (const t of totals) {
      const key = `${t.family}/${t.component}/${t.implementation}/${t.operation}`;
      const seen = sums.get(key);
      sums.set(
        key,
        seen === undefined
          ? t
          : { ...t, count: seen.count + t.count, bytes: seen.bytes + t.bytes, ms: seen.ms + t.ms, ns: seen.ns + t.ns },
      );
    }
  }
  return [...sums.values()];
}

/** Every expected series whose sum over `values` (one number per instance) does not match, described. */
function sumMismatches(expected: readonly ExpectedSeries[], valuesOf: (series: ExpectedSeries) => number[]): string[] {
  return expected.flatMap((series) => {
    const values = valuesOf(series);
    const sum = values.reduce((a, b) => a + b, 0);
    return values.length === FLEET && matches(series, sum)
      ? []
      : [
          `${series.metric}${JSON.stringify(series.labels)}: ${values.length} instances, sum ${sum}, expected ${series.value}`,
        ];
  });
}

describe(`a fleet of ${FLEET} jobs at once`, () => {
  it.skipIf(!pushgatewayBinary && !requireE2E)(
    'pushing to a real Pushgateway: one group per instance, each with its own exact totals, the fleet totals exact',
    async ({ startPushgateway, startFixture }) => {
      const gateway = await startPushgateway();
      const recorded = await runFleet(startFixture, {
        OTEL_METRICS_EXPORTER: 'pushgateway',
        BACKUPSTATS_PUSHGATEWAY_URL: gateway.url,
      });

      const groups = await gateway.groups();
      expect(groups.map((g) => `${g.job}/${g.instance}`).sort()).toEqual(instances.map((i) => `${JOB}/${i}`));
      const samples = await gateway.samples();
      for (const [instance, totals] of recorded) {
        const own = expectedSeries(totals, 'otel');
        expect(groupMismatches(samples, { job: JOB, instance }, own), instance).toEqual([]);
      }
      const fleet = expectedSeries(fleetTotals(recorded), 'otel');
      const perInstance = (series: ExpectedSeries) =>
        samples
          .filter((s) => s.name === PROMETHEUS_NAMES[series.metric] && hasLabels(s, { job: JOB, ...series.labels }))
          .map((s) => s.value);
      expect(sumMismatches(fleet, perInstance)).toEqual([]);
    },
  );

  it('exporting over OTLP to one receiver: every instance’s exact totals under its resource, the fleet totals exact', async ({
    startReceiver,
    startFixture,
  }) => {
    const receiver = await startReceiver('http');
    const recorded = await runFleet(startFixture, {
      OTEL_METRICS_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    });

    for (const [instance, totals] of recorded) {
      const own = expectedSeries(totals, 'otel');
      const received = receiver.totals({ 'service.name': JOB, 'service.instance.id': instance });
      expect(mismatches(own, received), instance).toEqual([]);
    }
    const fleet = expectedSeries(fleetTotals(recorded), 'otel');
    const perInstance = (series: ExpectedSeries) =>
      instances.flatMap((instance) => {
        const value = receiver.totals({ 'service.instance.id': instance }).get(seriesKey(series.metric, series.labels));
        return value === undefined ? [] : [value];
      });
    expect(sumMismatches(fleet, perInstance)).toEqual([]);
  });
});
