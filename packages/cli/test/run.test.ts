// `backupstats run`: the command's exit status and signals, the run it records, one export at the end (through the
// textfile exporter, read from its file) and the report. Each test runs the built command in a child process.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { cleanEnv } from '@backupstats/testkit/node-process';
import { createBackupStats } from 'backupstats';
import { describe, expect, it, onTestFinished } from 'vitest';
import { sampleValue } from '../../../test/support/pushgateway/group-series.js';
import { CLI, runCli, startCli, startCommand, tempDir, textfileSamples } from './cli-process.js';

/** Variables that make a run export to a textfile in `dir` (and write its report there), within 1 s at its end. */
function textfileEnv(dir: string): Record<string, string> {
  return {
    OTEL_METRICS_EXPORTER: 'textfile',
    BACKUPSTATS_TEXTFILE_PATH: join(dir, 'job.prom'),
    BACKUPSTATS_REPORT_PATH: join(dir, 'report.html'),
    OTEL_SERVICE_NAME: 'shell-job',
    OTEL_METRIC_EXPORT_TIMEOUT: '1000',
  };
}

const runs = (dir: string, family: string, labels: Record<string, string>) =>
  sampleValue(textfileSamples(join(dir, 'job.prom')), `${family}_runs_total`, labels);

/** The report's data, from the page. */
function reportOf(path: string) {
  const html = readFileSync(path, 'utf8');
  const json = /<script type="application\/json" id="backupstats-report">(.*?)<\/script>/s.exec(html)?.[1];
  return JSON.parse(json ?? 'null') as {
    runs: Array<{
      operation: string;
      outcome: string;
      bytes: number;
      stages: Array<{ operation: string; bytes: number }>;
    }>;
  };
}

/**
 * A copy of the built command in a folder of its own, so that no other test's run writes its code cache there; inside
 * the package (a .run-* folder, git-ignored), where the library's bundle finds the packages it requires.
 */
function copyOfCommand(): string {
  const built = dirname(CLI);
  const copy = mkdtempSync(join(built, '..', '.run-code-cache-'));
  onTestFinished(() => {
    chmodSync(copy, 0o755);
    rmSync(copy, { recursive: true, force: true });
  });
  for (const file of readdirSync(built).filter((name) => name.endsWith('.cjs'))) {
    copyFileSync(join(built, file), join(copy, file));
  }
  return copy;
}

describe('backupstats run', () => {
  it('a pipeline that exits 0: exit 0, one successful run with exact stage bytes exported at the end, and the report', async () => {
    const dir = tempDir('run');
    writeFileSync(join(dir, 'data.bin'), Buffer.alloc(3_000_000, 'backup row; '));
    const ended = await runCli(
      [
        'run',
        '--',
        'sh',
        '-c',
        'backupstats meter -q --operation Source:Read < data.bin | gzip -1 | backupstats meter -q --operation Compressor:Write > out.gz',
      ],
      { env: textfileEnv(dir), cwd: dir },
    );
    expect(ended, ended.stderr).toMatchObject({ code: 0, signal: null, stderr: '' });
    const gz = statSync(join(dir, 'out.gz')).size;
    const samples = textfileSamples(join(dir, 'job.prom'));
    const bytes = (operation: string) =>
      sampleValue(samples, 'backup_bytes_total', { component: 'BackupEngine', implementation: 'Shell', operation });
    expect([bytes('Source:Read'), bytes('Compressor:Write'), bytes('Destination:Write')]).toEqual([3_000_000, gz, gz]);
    expect(sampleValue(samples, 'backup_runs_total', { operation: 'Backup', outcome: 'success' })).toBe(1);
    expect(sampleValue(samples, 'backup_last_success_bytes', { operation: 'Backup' })).toBe(3_000_000);
    const report = reportOf(join(dir, 'report.html'));
    expect(report.runs.map((run) => [run.operation, run.outcome, run.bytes])).toEqual([
      ['Backup', 'success', 3_000_000],
    ]);
    expect(report.runs[0]?.stages.map((stage) => stage.operation).sort()).toEqual([
      'Compressor:Write',
      'Destination:Write',
      'Source:Read',
    ]);
  });

  it("returns the command's exit status and records a failure: _OTHER for a status, timeout for 124", async () => {
    const dir = tempDir('run');
    const env = textfileEnv(dir);
    const failed = await runCli(['run', '--label', 'implementation=pg_dump', '--', 'sh', '-c', 'exit 3'], { env });
    expect(failed, failed.stderr).toMatchObject({ code: 3, signal: null });
    const labels = { implementation: 'pg_dump', operation: 'Backup', outcome: 'failure' };
    expect(runs(dir, 'backup', { ...labels, error_type: '_OTHER' })).toBe(1);
    const timedOut = await runCli(['run', '--', 'sh', '-c', 'exit 124'], { env });
    expect(timedOut.code).toBe(124);
    expect(runs(dir, 'backup', { operation: 'Backup', outcome: 'failure', error_type: 'timeout' })).toBe(1);
  });

  it('a command killed by a signal: run ends by the same signal and records an interrupted failure', async () => {
    const dir = tempDir('run');
    const ended = await runCli(['run', '--', 'sh', '-c', 'kill -TERM $$'], { env: textfileEnv(dir) });
    expect(ended, ended.stderr).toMatchObject({ code: null, signal: 'SIGTERM' });
    expect(runs(dir, 'backup', { operation: 'Backup', outcome: 'failure', error_type: 'interrupted' })).toBe(1);
  });

  it('a command killed by SIGKILL (as the OOM killer does): run ends by SIGKILL too, after exporting the failure', async () => {
    const dir = tempDir('run');
    const ended = await runCli(['run', '--', 'sh', '-c', 'kill -KILL $$'], { env: textfileEnv(dir) });
    expect(ended, ended.stderr).toMatchObject({ code: null, signal: 'SIGKILL', stderr: '' });
    expect(runs(dir, 'backup', { operation: 'Backup', outcome: 'failure', error_type: 'interrupted' })).toBe(1);
  });

  it('forwards SIGTERM to the command, whose own exit status then ends the run', async () => {
    const dir = tempDir('run');
    const started = startCli(
      ['run', '--', 'sh', '-c', 'trap "exit 42" TERM; echo ready; while :; do sleep 0.02; done'],
      { env: textfileEnv(dir) },
    );
    await started.printed('ready');
    started.child.kill('SIGTERM');
    const ended = await started.ended;
    expect(ended, ended.stderr).toMatchObject({ code: 42, signal: null });
    expect(runs(dir, 'backup', { operation: 'Backup', outcome: 'failure', error_type: '_OTHER' })).toBe(1);
  });

  it('a command that outlives SIGTERM: the second SIGTERM ends the run as interrupted, exports, and kills the command', async () => {
    const dir = tempDir('run');
    // The command says it got the signal and goes on, as a job that ignores it would.
    const started = startCli(
      ['run', '--', 'sh', '-c', 'trap "echo got TERM" TERM; echo "ready $$"; while :; do sleep 0.02; done'],
      { env: textfileEnv(dir) },
    );
    await started.printed('ready');
    const pid = Number(/ready (\d+)/.exec(started.stdout())?.[1]);
    started.child.kill('SIGTERM');
    await started.printed('got TERM');
    started.child.kill('SIGTERM');
    const ended = await started.ended;
    expect(ended, ended.stderr).toMatchObject({ code: null, signal: 'SIGTERM' });
    expect(runs(dir, 'backup', { operation: 'Backup', outcome: 'failure', error_type: 'interrupted' })).toBe(1);
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
  });

  it('--family restore records a Restore run in the restore family', async () => {
    const dir = tempDir('run');
    const ended = await runCli(['run', '--family', 'restore', '--', 'true'], { env: textfileEnv(dir) });
    expect(ended, ended.stderr).toMatchObject({ code: 0 });
    expect(runs(dir, 'restore', { operation: 'Restore', outcome: 'success' })).toBe(1);
  });

  it('--family verify and prune: a run where the library has the family, else a set-up error naming those it has', async () => {
    const stats = createBackupStats();
    const has = (family: string) => typeof (stats as unknown as Record<string, unknown>)[family] === 'object';
    const present = ['backup', 'restore', 'verify', 'prune'].filter(has);
    await stats.shutdown();
    for (const family of ['verify', 'prune']) {
      const dir = tempDir('run');
      const ended = await runCli(['run', '--family', family, '--', 'true'], { env: textfileEnv(dir) });
      if (has(family)) {
        expect(ended, ended.stderr).toMatchObject({ code: 0 });
      } else {
        expect(ended.code).toBe(2);
        expect(ended.stderr).toContain(
          `--family "${family}" is not accepted: the installed backupstats library has the families ${present.join(', ')}`,
        );
        expect(existsSync(join(dir, 'job.prom'))).toBe(false);
      }
    }
  });

  it("with the console exporter: stdout is the command's alone, and the metrics go to stderr", async () => {
    const ended = await runCli(['run', '--', 'sh', '-c', 'printf data'], { env: { OTEL_METRICS_EXPORTER: 'console' } });
    expect(ended.code, ended.stderr).toBe(0);
    expect(ended.stdout).toBe('data');
    expect(ended.stderr).toContain('backup.runs');
  });

  it('a textfile job loads neither node:http nor node:crypto: no scrape server, no resource detectors', async () => {
    // Each module Node.js loads is start-up time of every cron job: the Prometheus exporter's HTTP server and the
    // resource detectors (one makes a UUID) are not what a job that writes a textfile uses.
    const dir = tempDir('run');
    const hook = join(dir, 'modules.cjs');
    writeFileSync(
      hook,
      `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(join(dir, 'modules.json'))}, ` +
        'JSON.stringify(process.moduleLoadList)));',
    );
    const ended = await runCli(['run', '--', 'sh', '-c', 'true'], {
      env: { ...textfileEnv(dir), NODE_OPTIONS: `--require ${hook}` },
    });
    expect(ended.code, ended.stderr).toBe(0);
    expect(runs(dir, 'backup', { operation: 'Backup', outcome: 'success' })).toBe(1);
    const loaded = JSON.parse(readFileSync(join(dir, 'modules.json'), 'utf8')) as string[];
    expect(loaded).toContain('NativeModule child_process');
    expect(loaded.filter((name) => /^NativeModule (http|https|crypto)$/.test(name))).toEqual([]);
  });

  it("keeps V8's code cache of the library beside it: written by a run, used by the next, a damaged one replaced", async () => {
    const copy = copyOfCommand();
    const caches = () => readdirSync(copy).filter((name) => name.endsWith('.cache'));
    const job = async () => {
      const dir = tempDir('run');
      const ended = await startCommand([process.execPath, join(copy, 'cli.cjs'), 'run', '--', 'sh', '-c', 'true'], {
        env: textfileEnv(dir),
      }).ended;
      expect(ended.code, ended.stderr).toBe(0);
      expect(runs(dir, 'backup', { operation: 'Backup', outcome: 'success' })).toBe(1);
    };

    await job();
    expect(caches()).toEqual([`.library.cjs.${process.versions.v8}.cache`]);
    const cache = join(copy, caches()[0] as string);
    const written = readFileSync(cache);
    expect(written.length).toBeGreaterThan(100_000);

    await job();
    expect(readFileSync(cache).equals(written), 'a cache V8 accepts is not written again').toBe(true);

    const damaged = Buffer.alloc(written.length, 7);
    writeFileSync(cache, damaged);
    await job();
    const replaced = readFileSync(cache);
    expect(replaced.equals(damaged), 'V8 refuses the damaged cache, and the run writes a whole one').toBe(false);
    expect(replaced.length).toBeGreaterThan(100_000);
    expect(readdirSync(copy).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    await job();
    expect(readFileSync(cache).equals(replaced), 'the next run accepts it').toBe(true);
  });

  it('in a folder it cannot write, as a global install is: runs as without the cache and leaves none', () => {
    const copy = copyOfCommand();
    chmodSync(copy, 0o555);
    const dir = tempDir('run');
    chmodSync(dir, 0o777);
    // Root writes anywhere: as root, the command runs as nobody, whom the folder's mode keeps out.
    const user = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const ended = spawnSync(process.execPath, [join(copy, 'cli.cjs'), 'run', '--', 'sh', '-c', 'true'], {
      env: cleanEnv(textfileEnv(dir)),
      encoding: 'utf8',
      ...user,
    });
    expect(ended.status, ended.stderr).toBe(0);
    expect(runs(dir, 'backup', { operation: 'Backup', outcome: 'success' })).toBe(1);
    expect(readdirSync(copy).filter((name) => !name.endsWith('.cjs'))).toEqual([]);
  });

  it('a command that cannot start: exit 127 and a configuration failure', async () => {
    const dir = tempDir('run');
    const ended = await runCli(['run', '--', join(dir, 'no-such-program')], { env: textfileEnv(dir) });
    expect(ended.code).toBe(127);
    expect(ended.stderr).toContain('cannot run');
    expect(runs(dir, 'backup', { operation: 'Backup', outcome: 'failure', error_type: 'configuration' })).toBe(1);
  });
});

describe('the command line', () => {
  it('--help on every command prints its usage and exits 0', async () => {
    const [top, run, meter] = await Promise.all([
      runCli(['--help']),
      runCli(['run', '--help']),
      runCli(['meter', '--help']),
    ]);
    expect([top.code, run.code, meter.code]).toEqual([0, 0, 0]);
    expect(top.stdout).toMatch(/^Usage: backupstats COMMAND/);
    expect(run.stdout).toMatch(/^Usage: backupstats run \[options\] -- COMMAND/);
    expect(meter.stdout).toMatch(/^Usage: backupstats meter --operation OP/);
  });

  it('a bad command line exits 2 naming the option, the value and what is accepted, before running anything', async () => {
    const dir = tempDir('run');
    const marker = join(dir, 'ran');
    const [label, bytes, family, meter] = await Promise.all([
      runCli(['run', '--label', 'operation=Dump', '--', 'touch', marker]),
      runCli(['run', '--expected-bytes', '1.5G', '--', 'touch', marker]),
      runCli(['run', '--family', 'archive', '--', 'touch', marker]),
      runCli(['meter']),
    ]);
    expect([label.code, bytes.code, family.code, meter.code]).toEqual([2, 2, 2, 2]);
    expect(label.stderr).toContain(
      '--label "operation=Dump" is not accepted: the label names are component and implementation',
    );
    expect(bytes.stderr).toContain('--expected-bytes "1.5G" is not accepted: a whole number of bytes');
    expect(family.stderr).toContain('--family "archive" is not accepted: one of backup, restore, verify, prune');
    expect(meter.stderr).toContain('--operation is required');
    expect(existsSync(marker)).toBe(false);
  });

  it('a variable the library does not accept: exit 2 with its message and code, the command not run', async () => {
    const dir = tempDir('run');
    const marker = join(dir, 'ran');
    const ended = await runCli(['run', '--', 'touch', marker], { env: { OTEL_METRICS_EXPORTER: 'carrier-pigeon' } });
    expect(ended.code).toBe(2);
    expect(ended.stderr).toMatch(/OTEL_METRICS_EXPORTER.*\(BACKUPSTATS_INVALID_ENV\)/);
    expect(existsSync(marker)).toBe(false);
  });
});
