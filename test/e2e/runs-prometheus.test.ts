// The Prometheus series of runs, as docs/runs-and-alerts.md lists them, checked on a real scrape under both
// namings: a job with one successful backup run, one failed and one in progress, a verify run that warns and ends
// partial and a prune run that deletes two backups, set up from the environment.
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';
import { type PromSample, prometheusBinary, requireE2E } from '../support/prometheus.js';

const fixture = fileURLToPath(new URL('../fixtures/run-job.mjs', import.meta.url));
const SCOPE = '{component="BackupEngine", implementation="Builtin", operation="Backup"';
const VERIFY = '{component="BackupEngine", implementation="Builtin", operation="Verify"';
const PRUNE = '{component="BackupStorage", implementation="File", operation="Prune"';
const DELETES = '{component="BackupStorage", implementation="File", operation="Prune:Delete"}';

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
        stored: 'backup_last_success_stored_bytes',
        verifyRuns: 'verify_runs_total',
        verifyWarnings: 'verify_run_warnings_total',
        verifyPartialTime: 'verify_last_partial_timestamp',
        verifySuccessTime: 'verify_last_success_timestamp',
        pruneRuns: 'prune_runs_total',
        pruneBytes: 'prune_bytes_total',
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
        stored: 'vtbackup_backup_last_success_stored_bytes',
        verifyRuns: 'vtbackup_verify_run_count_total',
        verifyWarnings: 'vtbackup_verify_run_warning_count_total',
        verifyPartialTime: 'vtbackup_verify_last_partial_timestamp_seconds',
        verifySuccessTime: 'vtbackup_verify_last_success_timestamp_seconds',
        pruneRuns: 'vtbackup_prune_run_count_total',
        pruneBytes: 'vtbackup_prune_bytes_total',
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
      // What the backup wrote to its destination while it ran alone is what it stored.
      await prometheus.waitForSamples(`${names.stored}${SCOPE}}`, value(1024));

      // The verify run: one partial end (corrupted) and one warning, and no success to move.
      await prometheus.waitForSamples(
        `${names.verifyRuns}${VERIFY}, outcome="partial", ${reason}="corrupted"}`,
        value(1),
      );
      const verifies = await prometheus.query(`${names.verifyRuns}${VERIFY}}`);
      expect(verifies.reduce((sum, s) => sum + s.value, 0)).toBe(1);
      await prometheus.waitForSamples(`${names.verifyWarnings}${VERIFY}, ${reason}="corrupted"}`, value(1));
      const [partial] = await prometheus.query(`${names.verifyPartialTime}${VERIFY}}`);
      expect(partial?.value).toBeGreaterThanOrEqual(success?.value ?? Number.NaN);
      expect(await prometheus.query(`${names.verifySuccessTime}${VERIFY}}`)).toEqual([]);
      // The prune run: a success, and the bytes reclaimed as the family's bytes of Prune:Delete.
      await prometheus.waitForSamples(`${names.pruneRuns}${PRUNE}, outcome="success"}`, value(1));
      await prometheus.waitForSamples(`${names.pruneBytes}${DELETES}`, value(1024));

      child.child.kill('SIGTERM');
      const end = await child.exited();
      expect(end.signal === 'SIGTERM' || end.code === 143, `exit ${JSON.stringify(end)}\n${child.stderr()}`).toBe(true);
    });
  }
});
