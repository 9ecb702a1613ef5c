// A real Prometheus scrapes a real Pushgateway (honor_labels, as Prometheus's docs ask) while jobs push to it: one
// with an ordinary grouping key, one with a grouping key as large as is accepted (labels named next to those that
// clash), and one that asks for `le`, which would give every bucket series two `le` labels and make Prometheus
// refuse the whole target. That one is refused at set-up and pushes nothing; the target stays up and every
// pushed series is scraped.
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { prometheusBinary, requireE2E } from '../support/prometheus.js';
import { pushgatewayBinary } from '../support/pushgateway/server.js';

const fixture = fileURLToPath(new URL('../fixtures/record-job.mjs', import.meta.url));

/** Every label name that is accepted next to the refused ones it resembles. */
const LARGEST =
  'region=eu,tier=db,shard=7,le_site=a,quantiles=q,operations=o,component_kind=c,outcomes=x,service=s,otel=o,' +
  'scope_name=n,target=t,zone=z%2F1';

describe.skipIf((!pushgatewayBinary || !prometheusBinary) && !requireE2E)(
  'grouping keys on a scraped Pushgateway',
  () => {
    it('a job asking for the grouping label "le" is refused; with the largest accepted key the target stays up', async ({
      startPushgateway,
      startPrometheus,
      startFixture,
    }) => {
      const gateway = await startPushgateway();
      const prometheus = await startPrometheus([gateway.address], { honorLabels: true });
      const push = (service: string, grouping: string | undefined) =>
        startFixture(fixture, {
          OTEL_METRICS_EXPORTER: 'pushgateway',
          BACKUPSTATS_PUSHGATEWAY_URL: gateway.url,
          OTEL_SERVICE_NAME: service,
          ...(grouping === undefined ? {} : { BACKUPSTATS_PUSHGATEWAY_GROUPING: grouping }),
          FIXTURE_BATCHES: '3',
        });
      const healthy = push('healthy', undefined);
      expect(await healthy.exited(), healthy.stderr()).toEqual({ code: 0, signal: null });
      const largest = push('largest', LARGEST);
      expect(await largest.exited(), largest.stderr()).toEqual({ code: 0, signal: null });
      const clash = push('clash', 'le=1');
      expect((await clash.exited()).code).not.toBe(0);
      expect(clash.stderr()).toContain('BACKUPSTATS_PUSHGATEWAY_GROUPING is "le=1"');
      expect((await gateway.groups()).map((g) => g.job).sort()).toEqual(['healthy', 'largest']);

      // Every bucket series of both groups scraped, and the target up through several scrapes.
      const buckets = await prometheus.waitForSamples(
        'count by (job) (backup_operation_duration_bucket)',
        (samples) => samples.length === 2,
      );
      expect(buckets.map((s) => s.metric.job).sort()).toEqual(['healthy', 'largest']);
      const labelled = await prometheus.query('backup_operations_total{job="largest",zone="z/1",le_site="a"}');
      expect(labelled.length).toBeGreaterThan(0);
      await prometheus.waitForSamples('count_over_time(up[10s]) >= 3');
      const up = await prometheus.query('min_over_time(up[10s])');
      expect(up.map((s) => s.value)).toEqual([1]);
    });
  },
);
