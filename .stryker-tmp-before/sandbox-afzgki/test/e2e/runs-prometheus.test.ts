// @ts-nocheck
// The Prometheus series of runs, as docs/runs-and-alerts.md lists them, checked on a real scrape under both
// namings: a job with one successful run, one failed run and one in progress, set up from the environment.
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';
import { type PromSample, prometheusBinary, requireE2E } from '../support/prometheus.js';

const fixture = fileURLToPath(new URL('../fixtures/run-job.mjs', import.meta.url));
const SCOPE = '{component="BackupEngine", implementation="Builtin", operation="Backup"';

describe.skipIf(!prometheusBinary && !requireE2E)('run series scraped by a real Prometheus', () => {
  const namings = [
    {
      naming: 'otel',
      env: {},
      names: {
        runs: 'backup_runs_total',
        duration: 'backup_run_duration',
        successTime: 'backup_last_success_timestamp',
        failureTime: 'backup_last_failure_timestamp',
        bytes: 'backup_last_success_bytes',
      },
      reason: 'error_type',
    },
    {
      naming: 'vitess',
      env: { BACKUPSTATS_NAMING: 'vitess', BACKUPSTATS_METRIC_PREFIX: 'vtbackup_' },
      names: {
        runs: 'vtbackup_backup_run_count_total',
        duration: 'vtbackup_backup_run_duration_seconds',
        successTime: 'vtbackup_backup_last_success_timestamp_seconds',
        failureTime: 'vtbackup_backup_last_failure_timestamp_seconds',
        bytes: 'vtbackup_backup_last_success_bytes',
      },
      reason: 'reason',
    },
  ] as const;
  for (const { naming, env, names, reason } of namings) {
    it(`${naming} naming: the documented series, with the runs' values`, async ({ startFixture, startPrometheus }) => {
      const port = await freePort();
      const child = startFixture(fixture, {
        OTEL_METRICS_EXPORTER: 'prometheus',
        OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
        OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
        ...env,
      });
      await child.waitForEvent('ready');
      const before = Date.now() / 1000;
      const prometheus = await startPrometheus([`127.0.0.1:${port}`]);

      const value = (value: number) => (samples: PromSample[]) => samples.length === 1 && samples[0]?.value === value;
      await prometheus.waitForSamples(`${names.runs}${SCOPE}, outcome="success"}`, value(1));
      await prometheus.waitForSamples(`${names.runs}${SCOPE}, outcome="failure", ${reason}="source"}`, value(1));
      // Every reason's series exists, at 0 until a run fails for it.
      const failures = await prometheus.query(`${names.runs}${SCOPE}, outcome="failure"}`);
      expect(failures.map((s) => [s.metric[reason], s.value]).sort()).toEqual([
        ['_OTHER', 0],
        ['configuration', 0],
        ['corrupted', 0],
        ['destination', 0],
        ['interrupted', 0],
        ['source', 1],
        ['timeout', 0],
      ]);
      await prometheus.waitForSamples(`${names.duration}_count${SCOPE}, outcome="success"}`, value(1));
      await prometheus.waitForSamples(`${names.duration}_bucket${SCOPE}, outcome="failure", le="86400"}`, value(1));
      await prometheus.waitForSamples(`${names.bytes}${SCOPE}}`, value(4096));
      const [success] = await prometheus.query(`${names.successTime}${SCOPE}}`);
      const [failure] = await prometheus.query(`${names.failureTime}${SCOPE}}`);
      expect(success?.value).toBeLessThanOrEqual(before);
      expect(failure?.value).toBeGreaterThanOrEqual(success?.value ?? Number.NaN);

      child.child.kill('SIGTERM');
      const end = await child.exited();
      expect(end.signal === 'SIGTERM' || end.code === 143, `exit ${JSON.stringify(end)}\n${child.stderr()}`).toBe(true);
    });
  }
});
