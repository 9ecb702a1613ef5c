// A new run of a job never erases what an operator needs from the previous one. The same nightly job (same job,
// same instance: its host name, as no service.instance.id is set) runs five times against the real Pushgateway:
// a success, a run interrupted by SIGTERM, a failure, a success, a partial run. Until a newer success replaces it,
// the group keeps the first run's last success (time and bytes), while the second run is in progress and after it failed, because
// each process pushes with POST, which replaces only the metric names it carries, and carries no last-success gauge
// before a success of its own.
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { requireE2E } from '../support/prometheus.js';
import type { Sample } from '../support/pushgateway/exposition.js';
import { sampleValue } from '../support/pushgateway/group-series.js';
import { pushgatewayBinary } from '../support/pushgateway/server.js';

const fixture = fileURLToPath(new URL('../fixtures/one-run-job.mjs', import.meta.url));
const group = { job: 'nightly', instance: hostname() };
const backup = { ...group, operation: 'Backup' };

/** What the group says about the backup's runs, as an operator reads it. */
function runState(samples: readonly Sample[]) {
  const runs = (labels: Record<string, string>) => sampleValue(samples, 'backup_runs_total', { ...backup, ...labels });
  return {
    lastSuccess: sampleValue(samples, 'backup_last_success_timestamp', backup),
    lastSuccessBytes: sampleValue(samples, 'backup_last_success_bytes', backup),
    lastFailure: sampleValue(samples, 'backup_last_failure_timestamp', backup),
    lastPartial: sampleValue(samples, 'backup_last_partial_timestamp', backup),
    successes: runs({ outcome: 'success' }),
    interrupted: runs({ outcome: 'failure', error_type: 'interrupted' }),
    sourceFailures: runs({ outcome: 'failure', error_type: 'source' }),
    run: samples.find((s) => s.name === 'target_info' && s.labels.job === 'nightly')?.labels.run_number,
  };
}

describe.skipIf(!pushgatewayBinary && !requireE2E)('the same job run again, pushing to a real Pushgateway', () => {
  it('the first run’s last success (time and bytes) stays while the next run is in progress, after it is interrupted and after a failure, until a newer success; a partial run never moves it', async ({
    startPushgateway,
    startFixture,
  }) => {
    const gateway = await startPushgateway();
    const job = (run: number, outcome: string, bytes = '4096') =>
      startFixture(fixture, {
        OTEL_METRICS_EXPORTER: 'pushgateway',
        BACKUPSTATS_PUSHGATEWAY_URL: gateway.url,
        OTEL_SERVICE_NAME: 'nightly',
        // Only to tell which process pushed last: target_info carries it.
        OTEL_RESOURCE_ATTRIBUTES: `run.number=${run}`,
        FIXTURE_OUTCOME: outcome,
        FIXTURE_BYTES: bytes,
      });
    const state = async () => runState(await gateway.samples());

    // Night 1: a success of 4096 bytes.
    const first = job(1, 'success');
    expect(await first.exited(), first.stderr()).toEqual({ code: 0, signal: null });
    const night1 = await state();
    expect(night1).toMatchObject({ run: '1', lastSuccessBytes: 4096, lastFailure: undefined, successes: 1 });
    expect(night1.lastSuccess).toBeGreaterThan(0);

    // Night 2, in progress (the job pushed once, by forceFlush): its push replaced the run counters (its own: no
    // success yet), not the last success.
    const second = job(2, 'hold');
    await second.waitForEvent('running');
    await gateway.waitFor((samples) => (runState(samples).run === '2' ? true : undefined), "the second run's push");
    expect(await state()).toEqual({
      run: '2',
      lastSuccess: night1.lastSuccess,
      lastSuccessBytes: 4096,
      lastFailure: undefined,
      lastPartial: undefined,
      successes: 0,
      interrupted: 0,
      sourceFailures: 0,
    });

    // SIGTERM: the run is interrupted, and the final push says so; the first run's success is still there.
    second.child.kill('SIGTERM');
    expect(await second.exited(), second.stderr()).toEqual({ code: null, signal: 'SIGTERM' });
    const night2 = await state();
    expect(night2).toMatchObject({ run: '2', lastSuccess: night1.lastSuccess, lastSuccessBytes: 4096, interrupted: 1 });
    expect(night2.lastFailure).toBeGreaterThan(night1.lastSuccess ?? Number.POSITIVE_INFINITY);

    // Night 3 fails (its source is unreadable): a newer failure, the same success.
    const third = job(3, 'failure');
    expect(await third.exited(), third.stderr()).toEqual({ code: 0, signal: null });
    const night3 = await state();
    expect(night3).toMatchObject({
      run: '3',
      lastSuccess: night1.lastSuccess,
      lastSuccessBytes: 4096,
      successes: 0,
      interrupted: 0,
      sourceFailures: 1,
    });
    expect(night3.lastFailure).toBeGreaterThan(night2.lastFailure ?? Number.POSITIVE_INFINITY);

    // Night 4 succeeds with 8192 bytes: it replaces the last success. The failure of night 3, a metric this process
    // never pushes, stays: older than the success, it is no longer the last run's.
    const fourth = job(4, 'success', '8192');
    expect(await fourth.exited(), fourth.stderr()).toEqual({ code: 0, signal: null });
    const night4 = await state();
    expect(night4).toMatchObject({ run: '4', lastSuccessBytes: 8192, lastFailure: night3.lastFailure, successes: 1 });
    expect(night4.lastSuccess).toBeGreaterThan(night3.lastFailure ?? Number.POSITIVE_INFINITY);
    // Night 5 ends partial (a file vanished): its own end time and counts, and the last success of night 4 stays.
    const fifth = job(5, 'partial', '6000');
    expect(await fifth.exited(), fifth.stderr()).toEqual({ code: 0, signal: null });
    const night5 = await state();
    expect(night5).toMatchObject({
      run: '5',
      lastSuccess: night4.lastSuccess,
      lastSuccessBytes: 8192,
      successes: 0,
    });
    expect(night5.lastPartial).toBeGreaterThan(night4.lastSuccess ?? Number.POSITIVE_INFINITY);
    const samples = await gateway.samples();
    expect(sampleValue(samples, 'backup_runs_total', { ...backup, outcome: 'partial', error_type: 'source' })).toBe(1);
    expect(sampleValue(samples, 'backup_run_warnings_total', { ...backup, error_type: 'source' })).toBe(1);
    // One group all along: the runs replaced each other's series within it, never a group of another job.
    expect(await gateway.groups()).toEqual([group]);
  });
});
