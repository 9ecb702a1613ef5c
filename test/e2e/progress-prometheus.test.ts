// Progress, time left and stalls on a real Prometheus, during a running job: a child process whose backup run
// (given its expected size) reads for a while and then stops moving, alive. Prometheus scrapes it every second and
// evaluates the shipped rules with an allowed stall of 3 seconds: while it moves, its progress grows and the time
// left is finite; once it stopped, its progress is its bytes over the expected size exactly, the phase is the last
// one named, and BackupStalled fires for it. The Vitess names of the same gauges on a scrape too.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, onTestFinished, vi } from 'vitest';
import { EXAMPLES_DIR } from '../../packages/examples/test-support/run-cli.js';
import { it } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';
import { type PromSample, prometheusBinary, requireE2E } from '../support/prometheus.js';

const fixture = fileURLToPath(new URL('../fixtures/progress-job.mjs', import.meta.url));
const RULES = join(EXAMPLES_DIR, 'alerts', 'backupstats.rules.yml');
const EXPECTED = 20 * 1024 * 1024;
const RUN = { component: 'BackupEngine', implementation: 'Builtin', operation: 'Backup' };
const SCOPE = '{component="BackupEngine", implementation="Builtin", operation="Backup"}';

/** The one sample's value, or undefined when the query returned none or several. */
const only = (samples: PromSample[]): number | undefined => (samples.length === 1 ? samples[0]?.value : undefined);

describe.skipIf(!prometheusBinary && !requireE2E)('a running job on a real Prometheus', () => {
  it('progress and time left while it moves; its exact progress, its phase and BackupStalled once it stops', async ({
    startFixture,
    startPrometheus,
  }) => {
    const dir = await mkdtemp(join(tmpdir(), 'backupstats-stall-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const rules = await readFile(RULES, 'utf8');
    expect(rules).toContain('expr: vector(600)');
    const stallRules = join(dir, 'backupstats.rules.yml');
    await writeFile(stallRules, rules.replace('expr: vector(600)', 'expr: vector(3)'));

    const port = await freePort();
    const child = startFixture(fixture, {
      OTEL_METRICS_EXPORTER: 'prometheus',
      OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
      OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
      FIXTURE_EXPECTED: String(EXPECTED),
      FIXTURE_STALL_AT: String(9 * 1024 * 1024),
    });
    await child.waitForEvent('moving');
    const prometheus = await startPrometheus([`127.0.0.1:${port}`], { ruleFiles: [stallRules] });

    // While it moves (it stalls at 0.45): a progress above 0 and below that, a finite time left, phase "read".
    const progress = await prometheus.waitForSamples(`backup_run_progress${SCOPE}`, (s) => {
      const value = only(s);
      return value !== undefined && value > 0 && value < 0.45;
    });
    expect(progress[0]?.metric).toMatchObject({ ...RUN, job: 'backupstats' });
    const left = only(await prometheus.query(`backup_run_remaining_time${SCOPE}`));
    expect(left).toBeGreaterThan(0);
    expect(Number.isFinite(left)).toBe(true);
    expect(only(await prometheus.query(`backup_run_phase{phase="read", operation="Backup"}`))).toBe(1);
    expect(only(await prometheus.query(`backup_active_runs${SCOPE}`))).toBe(1);

    // Stopped: its bytes over the expected size, exactly; the phase it named last; and the stall alert.
    const stalled = await child.waitForEvent('stalled', 60_000);
    const bytes = stalled.bytes as number;
    await prometheus.waitForSamples(`backup_run_progress${SCOPE}`, (s) => only(s) === bytes / EXPECTED);
    await prometheus.waitForSamples(`backup_run_phase{phase="upload", operation="Backup"}`, (s) => only(s) === 1);
    expect(only(await prometheus.query(`backup_run_phase{phase="read", operation="Backup"}`))).toBe(0);
    const fired = await vi.waitFor(
      async () => {
        const alert = (await prometheus.alerts()).find(
          (a) => a.labels.alertname === 'BackupStalled' && a.state === 'firing',
        );
        if (alert === undefined) throw new Error('BackupStalled is not firing yet');
        return alert;
      },
      { timeout: 60_000, interval: 500 },
    );
    expect(fired.labels).toEqual({
      alertname: 'BackupStalled',
      severity: 'warning',
      job: 'backupstats',
      instance: `127.0.0.1:${port}`,
      ...RUN,
    });
    expect(fired.annotations.summary).toMatch(/^The backup of backupstats has not moved for \d+(\.\d+)?s$/);
    // Its last progress stays where it stopped, and the run is still in progress.
    const [sinceProgress] = await prometheus.query(`time() - backup_last_progress_timestamp${SCOPE}`);
    expect(sinceProgress?.value).toBeGreaterThan(3);
    expect(only(await prometheus.query(`backup_active_runs${SCOPE}`))).toBe(1);
  });

  it('vitess naming: the gauges of the run in progress under their Vitess names', async ({
    startFixture,
    startPrometheus,
  }) => {
    const port = await freePort();
    const child = startFixture(fixture, {
      OTEL_METRICS_EXPORTER: 'prometheus',
      OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
      OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
      BACKUPSTATS_NAMING: 'vitess',
      BACKUPSTATS_METRIC_PREFIX: 'vtbackup_',
      FIXTURE_EXPECTED: String(EXPECTED),
      FIXTURE_STALL_AT: String(1024 * 1024),
    });
    const stalled = await child.waitForEvent('stalled', 60_000);
    const prometheus = await startPrometheus([`127.0.0.1:${port}`]);
    const ratio = (stalled.bytes as number) / EXPECTED;
    await prometheus.waitForSamples(`vtbackup_backup_run_progress_ratio${SCOPE}`, (s) => only(s) === ratio);
    expect(only(await prometheus.query(`vtbackup_backup_runs_in_progress${SCOPE}`))).toBe(1);
    expect(only(await prometheus.query(`vtbackup_backup_run_remaining_seconds${SCOPE}`))).toBeGreaterThan(0);
    expect(only(await prometheus.query(`vtbackup_backup_last_progress_timestamp_seconds${SCOPE}`))).toBeLessThan(
      Date.now() / 1000,
    );
    expect(only(await prometheus.query(`vtbackup_backup_phase{phase="upload", operation="Backup"}`))).toBe(1);
  });
});
