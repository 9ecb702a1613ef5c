// The shipped alerting rules on the textfile path: a real Prometheus scrapes a real node_exporter (textfile collector
// only) with packages/examples/alerts/backupstats.rules.yml loaded. Two jobs of the host write their own files, under
// node_exporter's job and instance: one succeeds, the other succeeds and then fails on its next run. Only the second
// one's BackupLastRunFailed fires, naming its service, while its file still carries its first run's success.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { EXAMPLES_DIR } from '../../packages/examples/test-support/run-cli.js';
import { it } from '../support/fixtures.js';
import { lastRunFailed, lastRunFailedFiring } from '../support/last-run-failed.js';
import { nodeExporterBinary } from '../support/node-exporter.js';
import { prometheusBinary, requireE2E } from '../support/prometheus.js';
import { parseExposition } from '../support/pushgateway/exposition.js';
import { sampleValue } from '../support/pushgateway/group-series.js';

const RULES = join(EXAMPLES_DIR, 'alerts', 'backupstats.rules.yml');
const DASHBOARD = join(EXAMPLES_DIR, 'dashboards', 'backupstats.json');

/** The first query of the dashboard's panel `title`, with Grafana's variables as a user would choose them. */
async function panelQuery(title: string, job: string, service: string): Promise<string> {
  const dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8')) as {
    panels: { title: string; targets?: { expr: string }[] }[];
  };
  const expr = dashboard.panels.find((panel) => panel.title === title)?.targets?.[0]?.expr ?? '';
  return expr.replaceAll('$job', job).replaceAll('$service', service);
}
const fixture = fileURLToPath(new URL('../fixtures/one-run-job.mjs', import.meta.url));

describe.skipIf((!prometheusBinary || !nodeExporterBinary) && !requireE2E)(
  'the alerting rules in a real Prometheus scraping a real node_exporter',
  () => {
    it('two jobs of one host, the second one’s next run fails: BackupLastRunFailed fires for it alone, by service_name, and the dashboard shows each job’s numbers', async ({
      startNodeExporter,
      startPrometheus,
      startFixture,
    }) => {
      const node = await startNodeExporter();
      const prometheus = await startPrometheus([node.address], { ruleFiles: [RULES] });
      const run = async (service: string, outcome: string) => {
        const job = startFixture(fixture, {
          OTEL_METRICS_EXPORTER: 'textfile',
          BACKUPSTATS_TEXTFILE_PATH: join(node.dir, `${service}.prom`),
          OTEL_SERVICE_NAME: service,
          FIXTURE_OUTCOME: outcome,
        });
        expect(await job.exited(), job.stderr()).toEqual({ code: 0, signal: null });
      };
      const backup = { component: 'BackupEngine', implementation: 'Builtin', operation: 'Backup' };

      await run('nightly-a', 'success');
      await run('nightly-b', 'success');
      const successes = await prometheus.waitForSamples(
        'backupstats:backup_last_success:timestamp_seconds',
        (s) => s.length === 2,
      );
      // node_exporter's scrape job (the test Prometheus names it backupstats) and the service of each file.
      const rule = 'backupstats:backup_last_success:timestamp_seconds';
      const byService = successes
        .map((s) => s.metric)
        .sort((x, y) => (x.service_name ?? '').localeCompare(y.service_name ?? ''));
      expect(byService).toEqual([
        { __name__: rule, job: 'backupstats', service_name: 'nightly-a', ...backup },
        { __name__: rule, job: 'backupstats', service_name: 'nightly-b', ...backup },
      ]);
      expect(await lastRunFailed(prometheus)).toEqual([]);

      await run('nightly-b', 'failure');
      const fired = await lastRunFailedFiring(prometheus);
      expect(fired?.labels).toEqual({
        alertname: 'BackupLastRunFailed',
        severity: 'warning',
        job: 'backupstats',
        service_name: 'nightly-b',
        ...backup,
      });
      expect(fired?.annotations.summary).toBe('The last backup of backupstats (nightly-b) failed');
      // The alert's value is the failure in nightly-b's file, which still carries the first run's success.
      const file = parseExposition(readFileSync(join(node.dir, 'nightly-b.prom'), 'utf8'));
      expect(Number(fired?.value)).toBe(sampleValue(file, 'backup_last_failure_timestamp', backup));
      const success = successes.find((s) => s.metric.service_name === 'nightly-b');
      expect(sampleValue(file, 'backup_last_success_timestamp', backup)).toBe(success?.value);
      // Each file says whose it is, for BackupTextfileNotWritten; neither is old.
      const info = await prometheus.waitForSamples(
        'node_textfile_mtime_seconds * on (job, instance, file) group_left (service_name) backupstats_textfile_info',
        (s) => s.length === 2,
      );
      expect(info.map((s) => s.metric.service_name).sort()).toEqual(['nightly-a', 'nightly-b']);
      expect((await prometheus.alerts()).filter((a) => a.labels.alertname === 'BackupTextfileNotWritten')).toEqual([]);

      // The dashboard, with node_exporter's job and one service chosen: that job's numbers alone.
      const failed = await prometheus.query(
        await panelQuery('Failed backup runs, last 24 hours', 'backupstats', 'nightly-b'),
      );
      expect(failed.map((s) => s.value)).toEqual([expect.any(Number)]);
      expect(failed[0]?.value).toBeGreaterThan(0);
      const none = await prometheus.query(
        await panelQuery('Failed backup runs, last 24 hours', 'backupstats', 'nightly-a'),
      );
      expect(none.map((s) => s.value)).toEqual([0]);
      const size = await prometheus.query(
        await panelQuery('Size of the last successful backup', 'backupstats', 'nightly-b'),
      );
      expect(size.map((s) => s.value)).toEqual([4096]);
      const age = await prometheus.query(
        await panelQuery('Time since the last successful backup', 'backupstats', 'nightly-a'),
      );
      expect(age[0]?.value).toBeGreaterThanOrEqual(0);
      expect(age[0]?.value).toBeLessThan(600);
    });
  },
);
