// @ts-nocheck
// The shipped alerting rules on the pushed path: a real Prometheus scrapes a real Pushgateway with
// honor_labels: true, with packages/examples/alerts/backupstats.rules.yml loaded. A first process of a job pushes a
// successful run (no alert), the next one of the same job and instance pushes a failed run, and BackupLastRunFailed
// fires, naming the job the push gave (the service name), while the Pushgateway still holds the first run's success.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { EXAMPLES_DIR } from '../../packages/examples/test-support/run-cli.js';
import { it } from '../support/fixtures.js';
import { lastRunFailed, lastRunFailedFiring } from '../support/last-run-failed.js';
import { prometheusBinary, requireE2E } from '../support/prometheus.js';
import { sampleValue } from '../support/pushgateway/group-series.js';
import { pushgatewayBinary } from '../support/pushgateway/server.js';

const RULES = join(EXAMPLES_DIR, 'alerts', 'backupstats.rules.yml');
const fixture = fileURLToPath(new URL('../fixtures/one-run-job.mjs', import.meta.url));

describe.skipIf((!prometheusBinary || !pushgatewayBinary) && !requireE2E)(
  'the alerting rules in a real Prometheus scraping a real Pushgateway (honor_labels: true)',
  () => {
    it('a failed run pushed after a successful one: BackupLastRunFailed fires for the job of the push', async ({
      startPushgateway,
      startPrometheus,
      startFixture,
    }) => {
      const gateway = await startPushgateway();
      const prometheus = await startPrometheus([gateway.address], { ruleFiles: [RULES], honorLabels: true });
      const job = (outcome: string) =>
        startFixture(fixture, {
          OTEL_METRICS_EXPORTER: 'pushgateway',
          BACKUPSTATS_PUSHGATEWAY_URL: gateway.url,
          OTEL_SERVICE_NAME: 'nightly-pushed',
          OTEL_RESOURCE_ATTRIBUTES: 'service.instance.id=db-1',
          FIXTURE_OUTCOME: outcome,
        });
      const backup = { component: 'BackupEngine', implementation: 'Builtin', operation: 'Backup' };
      const labels = { job: 'nightly-pushed', ...backup };

      // Night 1 succeeds: the pushed series keep the push's job and instance, not the scrape job's.
      const first = job('success');
      expect(await first.exited(), first.stderr()).toEqual({ code: 0, signal: null });
      const [success] = await prometheus.waitForSamples('backup_last_success_timestamp');
      expect(success?.metric).toMatchObject({ ...labels, instance: 'db-1' });
      await prometheus.waitForSamples('backupstats:backup_last_success:timestamp_seconds');
      expect(await lastRunFailed(prometheus)).toEqual([]);

      // Night 2, the same job and instance, fails.
      const second = job('failure');
      expect(await second.exited(), second.stderr()).toEqual({ code: 0, signal: null });
      const fired = await lastRunFailedFiring(prometheus);
      expect(fired?.labels).toEqual({ alertname: 'BackupLastRunFailed', severity: 'warning', ...labels });
      expect(fired?.annotations.summary).toBe('The last backup of nightly-pushed failed');
      const samples = await gateway.samples();
      const group = { job: 'nightly-pushed', instance: 'db-1', ...backup };
      // The alert's value is the failure the second process pushed; the first one's success is still in the group.
      expect(Number(fired?.value)).toBe(sampleValue(samples, 'backup_last_failure_timestamp', group));
      expect(sampleValue(samples, 'backup_last_success_timestamp', group)).toBe(success?.value);
      const [failure] = await prometheus.query('backup_runs_total{outcome="failure"} > 0');
      expect(failure?.metric).toMatchObject({ ...labels, instance: 'db-1', error_type: 'source' });
    });
  },
);
