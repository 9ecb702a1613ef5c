// What the textfile exporter writes, to the character: the exposition, then the series that says which job's file
// it is, names escaped as the text format escapes them; nothing after its shutdown. And how the previous run's file
// is read: its series matched by name and labels whatever their order and escapes.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  InstrumentType,
  MeterProvider,
  PeriodicExportingMetricReader,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import { createBackupStats } from 'backupstats';
import { createTextfileExporter } from 'backupstats/textfile';
import { describe, expect, it, onTestFinished } from 'vitest';
import { parseExposition } from '../support/pushgateway/exposition.js';

type Exporter = ReturnType<typeof createTextfileExporter>;
/** What an export reports to its callback. */
type ExportResult = Parameters<Parameters<Exporter['export']>[1]>[0];

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'backupstats-textfile-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** No metrics, from a job of this service name. */
function nothingFrom(service: string): ResourceMetrics {
  return { resource: resourceFromAttributes({ 'service.name': service }), scopeMetrics: [] };
}

function exportTo(
  exporter: ReturnType<typeof createTextfileExporter>,
  metrics: ResourceMetrics,
): Promise<ExportResult> {
  return new Promise((resolve) => exporter.export(metrics, resolve));
}

/** Stats on a provider whose reader exports to a textfile exporter of `path` when told. */
function job(path: string, service: string) {
  const provider = new MeterProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    readers: [
      new PeriodicExportingMetricReader({
        exporter: createTextfileExporter({ path }),
        exportIntervalMillis: 3_600_000,
      }),
    ],
  });
  onTestFinished(() => provider.shutdown().catch(() => {}));
  return { provider, stats: createBackupStats({ meterProvider: provider }) };
}

const BACKUP = { component: 'BackupEngine', implementation: 'Builtin', operation: 'Backup' };

describe('the textfile', () => {
  it("holds the exposition, then the file's info series naming the file and the job, escaped, ending in a newline", async () => {
    const dir = join(scratch(), 'a "quoted" \\ dir');
    mkdirSync(dir);
    const path = join(dir, 'nightly.prom');
    const exporter = createTextfileExporter({ path });
    expect(await exportTo(exporter, nothingFrom('night"ly\\\njob'))).toEqual({ code: 0 });
    const escaped = 'night\\"ly\\\\\\njob';
    expect(readFileSync(path, 'utf8')).toBe(
      [
        '# HELP target_info Target metadata',
        '# TYPE target_info gauge',
        `target_info{service_name="${escaped}"} 1`,
        '# no registered metrics',
        '# HELP backupstats_textfile_info The file node_exporter reads this from, and the job that writes it.',
        '# TYPE backupstats_textfile_info gauge',
        `backupstats_textfile_info{file="${path.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}",service_name="${escaped}"} 1`,
        '',
      ].join('\n'),
    );
    expect(exporter.selectAggregationTemporality?.(InstrumentType.COUNTER)).toBe(1);
    expect(exporter.selectAggregationTemporality?.(InstrumentType.HISTOGRAM)).toBe(1);
    await exporter.shutdown();
  });

  it('is not written by an export after the shutdown, which fails as such', async () => {
    const dir = scratch();
    const exporter = createTextfileExporter({ path: join(dir, 'nightly.prom') });
    await exporter.shutdown();
    const result = await exportTo(exporter, nothingFrom('nightly'));
    expect(result.code).toBe(1);
    expect(result.error).toMatchObject({
      code: 'BACKUPSTATS_SHUT_DOWN',
      message: 'the textfile exporter is shut down',
    });
    expect(readdirSync(dir)).toEqual([]);
  });

  it("of the previous run is carried under a service name that needs escapes, its series matched whatever their labels' order", async () => {
    const dir = scratch();
    const path = join(dir, 'nightly.prom');
    const service = 'night}ly "a\\b"\nnext line';
    const first = job(path, service);
    first.stats.backup.scope(BACKUP).startRun().fail('source');
    await first.stats.shutdown();
    await first.provider.shutdown();
    const failedAt = parseExposition(readFileSync(path, 'utf8')).find(
      (s) => s.name === 'backup_last_failure_timestamp',
    );
    expect(failedAt?.labels.service_name).toBe(service);

    // The previous file as another writer would order its labels: the same series.
    const previous = readFileSync(path, 'utf8')
      .split('\n')
      .map((line) => {
        if (!line.startsWith('backup_last_failure_timestamp{')) return line;
        const [, labels = '', value = ''] = /^[^{]*\{(.*)\} (\S+)$/.exec(line) ?? [];
        const pairs = labels.match(/[a-z_]+="(?:[^"\\]|\\.)*"/g) ?? [];
        return `backup_last_failure_timestamp{${[...pairs].reverse().join(',')}} ${value}`;
      })
      .join('\n');
    writeFileSync(path, previous);

    const second = job(path, service);
    await second.provider.forceFlush();
    // With metrics the exposition ends in a newline of its own: no blank line before the file's info series.
    expect(readFileSync(path, 'utf8')).not.toContain('\n\n');
    const carried = parseExposition(readFileSync(path, 'utf8')).filter(
      (s) => s.name === 'backup_last_failure_timestamp',
    );
    expect(carried).toEqual([failedAt]);
    second.stats.backup.scope(BACKUP).startRun().fail('destination');
    await second.provider.forceFlush();
    const own = parseExposition(readFileSync(path, 'utf8')).filter((s) => s.name === 'backup_last_failure_timestamp');
    expect(own).toHaveLength(1);
    expect(own[0]?.value).toBeGreaterThanOrEqual(failedAt?.value as number);
  });
  it("of the previous run gives its last runs' gauges of this job, their comment lines with them, and nothing else", async () => {
    const dir = scratch();
    const path = join(dir, 'nightly.prom');
    const ours = 'operation="Backup",service_name="nightly"';
    writeFileSync(
      path,
      [
        '# a comment before any family',
        'stray_last_success_timestamp 5',
        '',
        '# HELP backup_last_success_timestamp When the last successful backup run ended.',
        '# TYPE backup_last_success_timestamp   gauge  ',
        '# UNIT backup_last_success_timestamp seconds',
        '# a comment of its own',
        '   ',
        `backup_last_success_timestamp{${ours}} 1000`,
        // Labels end at their closing brace, found past quoted braces and escaped quotes: what follows is no label.
        `backup_last_success_timestamp{operation="a\\"}b",service_name="nightly"} 1000 # {service_name="weekly"} 1`,
        'backup_last_success_timestamp{operation="Backup",service_name="weekly"} 900 # {service_name="nightly"} 1',
        '# TYPE backup_progress_ratio gauge',
        `backup_progress_ratio{${ours}} 0.5`,
        '# HELP restore_last_failure_timestamp Untyped: not carried.',
        `restore_last_failure_timestamp{${ours}} 800`,
        '# TYPE backup_last_success_count counter',
        `backup_last_success_count{${ours}} 3`,
        '# TYPE backup_runs_total counter',
        `backup_runs_total{${ours}} 7`,
        '',
      ].join('\n'),
    );
    const exporter = createTextfileExporter({ path });
    await exportTo(exporter, nothingFrom('nightly'));
    const text = readFileSync(path, 'utf8');
    expect(text.split('\n').slice(3, 10)).toEqual([
      'target_info{service_name="nightly"} 1',
      '# HELP backup_last_success_timestamp When the last successful backup run ended.',
      '# TYPE backup_last_success_timestamp   gauge  ',
      '# UNIT backup_last_success_timestamp seconds',
      '# a comment of its own',
      `backup_last_success_timestamp{${ours}} 1000`,
      `backup_last_success_timestamp{operation="a\\"}b",service_name="nightly"} 1000 # {service_name="weekly"} 1`,
    ]);
    expect(text).not.toMatch(
      /^\s+$|900|stray|restore_last_failure|backup_last_success_count|backup_runs_total|progress/m,
    );
    await exporter.shutdown();
  });
  it("is written beside files that are no other file of this job: another name's, not .prom, no target_info of it, a directory", async () => {
    const dir = scratch();
    const info = (service: string) => `# TYPE target_info gauge\ntarget_info{service_name="${service}"} 1\n`;
    writeFileSync(join(dir, 'weekly.prom'), info('weekly'));
    writeFileSync(join(dir, 'nightly.prom.bak'), info('nightly'));
    writeFileSync(
      join(dir, 'other.prom'),
      [
        'backup_runs_total{service_name="nightly"} 1',
        '# target_info{service_name="nightly"} 1',
        'target_info 1 # {service_name="nightly"}',
        '',
      ].join('\n'),
    );
    mkdirSync(join(dir, 'folder.prom'));
    const path = join(dir, 'nightly.prom');
    // The file itself, from the job's previous run, is its own.
    writeFileSync(path, info('nightly'));
    const exporter = createTextfileExporter({ path });
    expect(await exportTo(exporter, nothingFrom('nightly'))).toEqual({ code: 0 });
    expect(readFileSync(path, 'utf8')).toContain('backupstats_textfile_info{');
    await exporter.shutdown();
  });
  it('is written by every export asked for before a flush or the shutdown once they resolve', async () => {
    const dir = scratch();
    const path = join(dir, 'nightly.prom');
    const exporter = createTextfileExporter({ path });
    const results: ExportResult[] = [];
    exporter.export(nothingFrom('nightly'), (result) => results.push(result));
    await exporter.forceFlush();
    expect(results).toEqual([{ code: 0 }]);
    expect(readFileSync(path, 'utf8')).toContain('backupstats_textfile_info{');
    rmSync(path);
    exporter.export(nothingFrom('nightly'), (result) => results.push(result));
    await exporter.shutdown();
    expect(results).toHaveLength(2);
    // Written, then the lock released.
    expect(readdirSync(dir)).toEqual(['nightly.prom']);
  });

  it('that cannot be written fails the export with the path and the reason; one of another file of the job, with that', async () => {
    const dir = scratch();
    const path = join(dir, 'nightly.prom');
    const exporter = createTextfileExporter({ path });
    onTestFinished(() => exporter.shutdown());
    mkdirSync(path);
    const failed = await exportTo(exporter, nothingFrom('nightly'));
    expect(failed.code).toBe(1);
    expect(failed.error).toMatchObject({ code: 'BACKUPSTATS_WRITE_FAILED' });
    expect(failed.error?.message).toMatch(new RegExp(`^the write of ${path} failed: E[A-Z]+: `));

    const weekly = join(dir, 'weekly.prom');
    const other = createTextfileExporter({ path: weekly });
    onTestFinished(() => other.shutdown());
    writeFileSync(join(dir, 'old.prom'), 'target_info{service_name="weekly"} 1\n');
    const refused = await exportTo(other, nothingFrom('weekly'));
    expect(refused.code).toBe(1);
    expect(refused.error).toMatchObject({ code: 'BACKUPSTATS_TEXTFILE_TAKEN' });
    expect(refused.error?.message).toMatch(
      /^backupstats: createTextfileExporter option path is .*old\.prom in the same directory/,
    );
  });
  it('of the previous run keeps, in a family this run has too, the series this run has not', async () => {
    const dir = scratch();
    const path = join(dir, 'nightly.prom');
    const failed = (operation: string, at: number) =>
      `backup_last_failure_timestamp{component="BackupEngine",implementation="Builtin",operation="${operation}",otel_scope_name="backupstats",otel_scope_version="0.0.9",service_name="nightly"} ${at}`;
    writeFileSync(
      path,
      ['# TYPE backup_last_failure_timestamp gauge', failed('Backup', 1000), failed('Backup:Full', 900), ''].join('\n'),
    );
    const { provider, stats } = job(path, 'nightly');
    stats.backup.scope(BACKUP).startRun().fail('source');
    await provider.forceFlush();
    const failures = parseExposition(readFileSync(path, 'utf8')).filter(
      (s) => s.name === 'backup_last_failure_timestamp',
    );
    expect(failures.map((s) => [s.labels.operation, s.value > 1000])).toEqual([
      ['Backup', true],
      ['Backup:Full', false],
    ]);
  });

  it('of a job without a service name names none; the first other file of the job, by name, is the one named', async () => {
    const dir = scratch();
    const exporter = createTextfileExporter({ path: join(dir, 'unnamed.prom') });
    await exportTo(exporter, { resource: resourceFromAttributes({}), scopeMetrics: [] });
    expect(readFileSync(join(dir, 'unnamed.prom'), 'utf8')).toContain('",service_name=""} 1\n');
    await exporter.shutdown();

    for (const name of ['b.prom', 'a.prom', 'c.prom'])
      writeFileSync(join(dir, name), 'target_info{service_name="nightly"} 1\n');
    const refused = createTextfileExporter({ path: join(dir, 'nightly.prom') });
    onTestFinished(() => refused.shutdown());
    const result = await exportTo(refused, nothingFrom('nightly'));
    expect(result.error?.message).toContain(`and ${join(dir, 'a.prom')} in the same directory`);
  });

  it('has a lock readable by everyone, not writable by others whatever the umask, and leaves no file open', async () => {
    const dir = scratch();
    const warm = createTextfileExporter({ path: join(dir, 'warm.prom') });
    await warm.shutdown();
    const open = () => readdirSync('/proc/self/fd').length;
    const before = open();
    const umask = process.umask(0);
    try {
      const paths = ['a', 'b', 'c'].map((name) => join(dir, `${name}.prom`));
      for (const path of paths) writeFileSync(path, '# TYPE backup_last_success_timestamp gauge\n');
      const exporters = paths.map((path) => createTextfileExporter({ path }));
      expect(statSync(join(dir, '.a.prom.lock')).mode & 0o777).toBe(0o644);
      for (const exporter of exporters) await exporter.shutdown();
    } finally {
      process.umask(umask);
    }
    expect(open()).toBe(before);
  });
  it('whose directory was removed fails the export as a write, not by a throw', async () => {
    const dir = join(scratch(), 'gone');
    mkdirSync(dir);
    const exporter = createTextfileExporter({ path: join(dir, 'nightly.prom') });
    rmSync(dir, { recursive: true });
    const result = await exportTo(exporter, nothingFrom('nightly'));
    expect(result.code).toBe(1);
    expect(result.error).toMatchObject({ code: 'BACKUPSTATS_WRITE_FAILED' });
    await exporter.shutdown();
  });
});
