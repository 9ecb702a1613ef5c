// createTextfileExporter under a MeterProvider of the test's own (the real sdk-metrics), writing real files: each
// export replaces the file whole, readable by everyone whatever the umask; a write that fails is reported once with the
// path and the reason and the next export tries again; the shutdown writes the last numbers; a second job of the
// same service name in the directory is refused; temporary files of killed processes are removed.
// A directory this process cannot write is refused at set-up: test/processes/textfile-unwritable.test.ts.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { Component, createBackupStats, createHistogramProducer, Implementation, Operation } from 'backupstats';
import { createTextfileExporter } from 'backupstats/textfile';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { parseExposition } from '../support/pushgateway/exposition.js';
import { sampleValue } from '../support/pushgateway/group-series.js';

const READ = {
  component: Component.BackupEngine,
  implementation: Implementation.Builtin,
  operation: Operation.SourceRead,
};

/** A provider whose one reader exports to a textfile exporter only when told (forceFlush), and stats on it. */
function job(path: string, service = 'nightly', options: Parameters<typeof createBackupStats>[0] = {}) {
  const reader = new PeriodicExportingMetricReader({
    exporter: createTextfileExporter({ path }),
    exportIntervalMillis: 3_600_000,
    metricProducers: [createHistogramProducer()],
  });
  const provider = new MeterProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    readers: [reader],
  });
  const stats = createBackupStats({ ...options, meterProvider: provider });
  onTestFinished(() => provider.shutdown().catch(() => {}));
  return { stats, provider, read: stats.backup.scope(READ) };
}

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'backupstats-textfile-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const bytesIn = (path: string) =>
  sampleValue(parseExposition(readFileSync(path, 'utf8')), 'backup_bytes_total', { service_name: 'nightly' });

describe('createTextfileExporter', () => {
  it('each export replaces the file with the totals so far, mode 0644 under a umask of 077, and nothing else is left in the directory', async () => {
    const dir = scratch();
    const path = join(dir, 'nightly.prom');
    const { provider, read } = job(path);
    const umask = process.umask(0o077);
    try {
      read.timedIncrementBytes(1000, 2);
      await provider.forceFlush();
      expect(bytesIn(path)).toBe(1000);
      read.timedIncrementBytes(24, 2);
      await provider.forceFlush();
      expect(bytesIn(path)).toBe(1024);
    } finally {
      process.umask(umask);
    }
    expect(statSync(path).mode & 0o777).toBe(0o644);
    // Beside the file, only its lock, which says which process writes it.
    expect(readdirSync(dir).sort()).toEqual(['.nightly.prom.lock', 'nightly.prom']);
    expect(readFileSync(join(dir, '.nightly.prom.lock'), 'utf8')).toBe(`${process.pid}\n`);
    // The text format of the Prometheus exporter: no timestamps, the job's service name on every series.
    const text = readFileSync(path, 'utf8');
    expect(text).toMatch(/^# HELP target_info Target metadata\n/);
    for (const sample of parseExposition(text)) expect(sample.labels.service_name).toBe('nightly');
  });

  it('a write that fails is reported once, with the path and the reason; the next export tries again, and a new failure after a success is said again', async ({
    diagnostics,
  }) => {
    const dir = scratch();
    const path = join(dir, 'nightly.prom');
    const { provider, read } = job(path);
    // A directory in the file's place: the rename over it fails (EISDIR) at every export until it is gone.
    mkdirSync(path);
    read.timedIncrementBytes(1000, 2);
    await provider.forceFlush();
    await provider.forceFlush();
    const said = diagnostics.messages.filter((m) => m.includes('textfile exporter could not write'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      new RegExp(
        `^backupstats: the textfile exporter could not write ${path}: EISDIR: illegal operation on a directory, rename '${dir}/\\.nightly\\.prom\\.\\d+-\\d+\\.tmp' -> '${path}'; node_exporter serves the previous file, the job goes on and the next export tries again`,
      ),
    );
    // The failed writes removed their temporary files.
    expect(readdirSync(dir).sort()).toEqual(['.nightly.prom.lock', 'nightly.prom']);

    rmdirSync(path);
    await provider.forceFlush();
    expect(bytesIn(path)).toBe(1000);
    expect(diagnostics.messages.filter((m) => m.includes('could not write'))).toHaveLength(1);

    rmSync(path);
    mkdirSync(path);
    await provider.forceFlush();
    expect(diagnostics.messages.filter((m) => m.includes('could not write'))).toHaveLength(2);
  });

  it("the previous file's last success, failure and partial end are carried until this run has its own: the same series whatever the library's version, and not another service's", async () => {
    const dir = scratch();
    const path = join(dir, 'nightly.prom');
    const backup = 'component="BackupEngine",implementation="Builtin",operation="Backup"';
    const old = (service: string, version: string) =>
      `${backup},otel_scope_name="backupstats",otel_scope_version="${version}",service_name="${service}"`;
    writeFileSync(
      path,
      [
        '# HELP backup_last_success_timestamp When the last successful backup run ended, in seconds since the Unix epoch.',
        '# TYPE backup_last_success_timestamp gauge',
        `backup_last_success_timestamp{${old('nightly', '0.0.9')}} 1000`,
        `backup_last_success_timestamp{${old('renamed', '0.0.9')}} 900`,
        '# HELP backup_last_failure_timestamp When the last failed backup run ended, in seconds since the Unix epoch.',
        '# TYPE backup_last_failure_timestamp gauge',
        `backup_last_failure_timestamp{${old('nightly', '0.0.9')}} 2000`,
        '# HELP backup_last_partial_timestamp When the last backup run that ended partial ended, in seconds since the Unix epoch.',
        '# TYPE backup_last_partial_timestamp gauge',
        `backup_last_partial_timestamp{${old('nightly', '0.0.9')}} 1500`,
        '# HELP verify_last_success_timestamp When the last successful verify run ended, in seconds since the Unix epoch.',
        '# TYPE verify_last_success_timestamp gauge',
        `verify_last_success_timestamp{${old('nightly', '0.0.9')}} 1200`,
        '# HELP backup_bytes_total Bytes moved by backup operations.',
        '# TYPE backup_bytes_total counter',
        `backup_bytes_total{${old('nightly', '0.0.9')}} 5`,
        '',
      ].join('\n'),
    );
    const { stats, provider } = job(path);
    const run = stats.backup.scope({
      component: Component.BackupEngine,
      implementation: Implementation.Builtin,
      operation: Operation.Backup,
    });
    await provider.forceFlush();
    const carried = parseExposition(readFileSync(path, 'utf8'));
    const labels = { ...READ, operation: 'Backup', service_name: 'nightly' };
    expect(sampleValue(carried, 'backup_last_success_timestamp', labels)).toBe(1000);
    expect(sampleValue(carried, 'backup_last_failure_timestamp', labels)).toBe(2000);
    expect(sampleValue(carried, 'backup_last_partial_timestamp', labels)).toBe(1500);
    expect(sampleValue(carried, 'verify_last_success_timestamp', labels)).toBe(1200);
    // Another service name's series (a job renamed since) and the counters are not carried.
    expect(carried.filter((s) => s.labels.service_name === 'renamed')).toEqual([]);
    expect(sampleValue(carried, 'backup_bytes_total', { operation: 'Backup' })).toBeUndefined();

    run.startRun().succeed(10);
    await provider.forceFlush();
    const own = parseExposition(readFileSync(path, 'utf8'));
    // This run's success replaces the carried one (one series, this version's); the failure stays, carried.
    const successes = own.filter((s) => s.name === 'backup_last_success_timestamp');
    expect(successes).toHaveLength(1);
    expect(successes[0]?.value).toBeGreaterThan(1000);
    expect(successes[0]?.labels.otel_scope_version).not.toBe('0.0.9');
    expect(sampleValue(own, 'backup_last_failure_timestamp', labels)).toBe(2000);
  });

  it('under the vitess naming with a prefix too, the next run carries the last success (time and bytes)', async () => {
    const path = join(scratch(), 'nightly.prom');
    const vitess = { naming: 'vitess', metricPrefix: 'vtbackup_' } as const;
    const first = job(path, 'nightly', vitess);
    first.stats.backup
      .scope({ ...READ, operation: Operation.Backup })
      .startRun()
      .succeed(4096);
    await first.stats.shutdown();
    await first.provider.shutdown();
    const written = parseExposition(readFileSync(path, 'utf8'));
    const labels = { operation: 'Backup', service_name: 'nightly' };
    const success = sampleValue(written, 'vtbackup_backup_last_success_timestamp_seconds', labels);
    expect(success).toBeGreaterThan(0);

    const second = job(path, 'nightly', vitess);
    second.read.timedIncrementBytes(1, 1);
    await second.provider.forceFlush();
    const carried = parseExposition(readFileSync(path, 'utf8'));
    expect(sampleValue(carried, 'vtbackup_backup_last_success_timestamp_seconds', labels)).toBe(success);
    expect(sampleValue(carried, 'vtbackup_backup_last_success_bytes', labels)).toBe(4096);
  });

  it('the runs of every family reach the file exactly: outcomes, warnings, stored bytes and bytes reclaimed', async () => {
    const path = join(scratch(), 'nightly.prom');
    const { stats, provider } = job(path);
    const engine = { component: Component.BackupEngine, implementation: Implementation.Builtin };
    const storage = { component: Component.BackupStorage, implementation: Implementation.File };
    stats.backup
      .scope({ ...engine, operation: Operation.Backup })
      .startRun()
      .succeed(4000, { storedBytes: 1000 });
    stats.restore
      .scope({ ...engine, operation: Operation.Restore })
      .startRun()
      .fail('source');
    const check = stats.verify.scope({ ...engine, operation: Operation.Verify }).startRun();
    check.warn('corrupted');
    check.partial('corrupted', 3000);
    const prune = stats.prune.scope({ ...storage, operation: Operation.Prune }).startRun();
    stats.prune.scope({ ...storage, operation: Operation.PruneDelete }).timedIncrementBytes(700, 1);
    prune.succeed();
    await provider.forceFlush();
    const file = parseExposition(readFileSync(path, 'utf8'));
    const value = (name: string, labels: Record<string, string>) =>
      sampleValue(file, name, { service_name: 'nightly', ...labels });
    expect({
      backupStored: value('backup_last_success_stored_bytes', { operation: 'Backup' }),
      backupRead: value('backup_last_success_bytes', { operation: 'Backup' }),
      restoreFailed: value('restore_runs_total', { operation: 'Restore', outcome: 'failure', error_type: 'source' }),
      verifyPartial: value('verify_runs_total', { operation: 'Verify', outcome: 'partial', error_type: 'corrupted' }),
      verifySucceeded: value('verify_runs_total', { operation: 'Verify', outcome: 'success' }),
      verifyWarnings: value('verify_run_warnings_total', { operation: 'Verify', error_type: 'corrupted' }),
      pruneSucceeded: value('prune_runs_total', { operation: 'Prune', outcome: 'success' }),
      reclaimed: value('prune_bytes_total', { operation: 'Prune:Delete' }),
    }).toEqual({
      backupStored: 1000,
      backupRead: 4000,
      restoreFailed: 1,
      verifyPartial: 1,
      verifySucceeded: 0,
      verifyWarnings: 1,
      pruneSucceeded: 1,
      reclaimed: 700,
    });
    expect(value('verify_last_partial_timestamp', { operation: 'Verify' })).toBeGreaterThan(0);
  });

  it('the shutdown writes the numbers recorded since the last export', async () => {
    const path = join(scratch(), 'nightly.prom');
    const { stats, provider, read } = job(path);
    read.timedIncrementBytes(1000, 2);
    await provider.forceFlush();
    read.timedIncrementBytes(4096, 2);
    await stats.shutdown();
    await provider.shutdown();
    expect(bytesIn(path)).toBe(5096);
  });

  it('another file of the directory with the same service name: nothing is written, reported once naming both files; another service name is written', async ({
    diagnostics,
  }) => {
    const dir = scratch();
    const other = join(dir, 'old-name.prom');
    writeFileSync(
      other,
      '# HELP target_info Target metadata\n# TYPE target_info gauge\ntarget_info{service_name="nightly"} 1\n',
    );
    const path = join(dir, 'nightly.prom');
    const { provider, read } = job(path);
    read.timedIncrementBytes(1000, 2);
    await provider.forceFlush();
    await provider.forceFlush();
    expect(readdirSync(dir).filter((name) => !name.endsWith('.lock'))).toEqual(['old-name.prom']);
    // Said once by the exporter (the SDK's reader adds its own line for every failed export).
    expect(diagnostics.messages.filter((m) => m.startsWith('backupstats:'))).toEqual([
      `backupstats: createTextfileExporter option path is ${JSON.stringify(path)}, and ${other} in the same directory already holds the series of service_name "nightly": node_exporter would serve only one of two such series. Give each job its own OTEL_SERVICE_NAME (service.name), or remove that file if no job writes it any more; nothing is written to the file`,
    ]);

    const weekly = job(join(dir, 'weekly.prom'), 'weekly');
    weekly.read.timedIncrementBytes(1, 1);
    await weekly.provider.forceFlush();
    expect(
      readdirSync(dir)
        .filter((name) => !name.endsWith('.lock'))
        .sort(),
    ).toEqual(['old-name.prom', 'weekly.prom']);
  });

  it('temporary files of the path left by processes that no longer run are removed when the exporter is made; those of a running process, and of other paths, stay', () => {
    const dir = scratch();
    const path = join(dir, 'nightly.prom');
    const dead = `.nightly.prom.${2 ** 22 + 1}-3.tmp`;
    const running = `.nightly.prom.${process.ppid}-1.tmp`;
    const otherPath = `.weekly.prom.${2 ** 22 + 1}-1.tmp`;
    for (const name of [dead, running, otherPath]) writeFileSync(join(dir, name), 'partial');
    const exporter = createTextfileExporter({ path });
    onTestFinished(() => exporter.shutdown());
    expect(readdirSync(dir).sort()).toEqual(['.nightly.prom.lock', running, otherPath].sort());
  });
});
