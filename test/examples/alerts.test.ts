// The alerting rules shipped with the examples: valid for promtool, their unit tests pass (and fail when the
// configured age changes, or when evaluations are more than a day apart), docs/runs-and-alerts.md shows the alerts,
// recording rule and absence expression the files hold, and loaded into a real Prometheus that scrapes the demo,
// the failure alert fires after a failed backup run that followed a successful one.
import { readdirSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NodeProcess } from '@backupstats/testkit/node-process';
import { describe, expect, onTestFinished } from 'vitest';
import { EXAMPLES_DIR, startCli } from '../../packages/examples/test-support/run-cli.js';
import { waitForOutput } from '../support/child.js';
import { it } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';
import { lastRunFailed, lastRunFailedFiring } from '../support/last-run-failed.js';
import { prometheusBinary, requireE2E } from '../support/prometheus.js';
import { promtool, promtoolBinary } from '../support/promtool.js';

const ALERTS_DIR = join(EXAMPLES_DIR, 'alerts');
const RULES = join(ALERTS_DIR, 'backupstats.rules.yml');
const DOCS = join(EXAMPLES_DIR, '..', '..', 'docs', 'runs-and-alerts.md');
/** The promtool unit test files of the rules: every `*.test.yml` of the folder. */
const UNIT_TESTS = readdirSync(ALERTS_DIR)
  .filter((name) => name.endsWith('.test.yml'))
  .sort();

if (promtoolBinary === undefined && !requireE2E) {
  console.warn(
    'backupstats alert tests: promtool not found (install the "prometheus" package or set PROMTOOL_BIN); they are skipped',
  );
}

describe.skipIf(!promtoolBinary && !requireE2E)('the alerting rules under promtool', () => {
  it('promtool check rules: the file is valid', async () => {
    const checked = await promtool(['check', 'rules', 'backupstats.rules.yml'], ALERTS_DIR);
    expect(checked, checked.stderr).toMatchObject({ code: 0 });
    expect(checked.stdout).toContain('SUCCESS: 26 rules found');
  });

  it('the alerts of the file are the ones docs/runs-and-alerts.md lists, no more, no fewer', async () => {
    const rules = await readFile(RULES, 'utf8');
    const inFile = [...rules.matchAll(/^\s*- alert: (\w+)$/gm)].map((m) => m[1]);
    const docs = await readFile(DOCS, 'utf8');
    const table = docs.slice(docs.indexOf('| alert '), docs.indexOf('\n\n', docs.indexOf('| alert ')));
    const documented = [...table.matchAll(/^\| `(\w+)` /gm)].map((m) => m[1]);
    expect(inFile.length).toBeGreaterThan(0);
    expect(documented.sort()).toEqual(inFile.sort());
  });

  // The 30-day file evaluates every rule hourly for 30 days: about 9 s of CPU alone, more beside other tests.
  it('promtool test rules: every rule fires where its unit tests expect it, and only there', {
    timeout: 90_000,
  }, async () => {
    expect(UNIT_TESTS).toEqual([
      'backupstats.rules.30d.test.yml',
      'backupstats.rules.gaps.test.yml',
      'backupstats.rules.reruns.test.yml',
      'backupstats.rules.stall.test.yml',
      'backupstats.rules.test.yml',
      'backupstats.rules.textfile.test.yml',
      'backupstats.rules.verify-prune.test.yml',
    ]);
    const tested = await promtool(['test', 'rules', ...UNIT_TESTS], ALERTS_DIR);
    expect(tested, `${tested.stdout}\n${tested.stderr}`).toMatchObject({ code: 0 });
    // One SUCCESS per file, right after its name.
    for (const file of UNIT_TESTS) expect(tested.stdout).toMatch(new RegExp(`Unit Testing: +${file}\\n +SUCCESS\\n`));
  });

  it('the carried last success and failure last a day: with evaluations 25 hours apart, the gap tests go silent', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'backupstats-rules-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    await cp(ALERTS_DIR, dir, { recursive: true });
    const file = join(dir, 'backupstats.rules.gaps.test.yml');
    const gaps = await readFile(file, 'utf8');
    expect(gaps).toContain('evaluation_interval: 20h\n');
    await writeFile(file, gaps.replace('evaluation_interval: 20h\n', 'evaluation_interval: 25h\n'));
    const tested = await promtool(['test', 'rules', 'backupstats.rules.gaps.test.yml'], dir);
    expect(tested.code).toBe(1);
    // Evaluated at 700 h, the last evaluation before 30 days: the success and the failure of 3 h and 4 h are gone.
    expect(tested.stderr).toMatch(/alertname: BackupTooOld, time: 30d,\s+exp:\[[^\]]+\],\s+got:\[\]/);
    expect(tested.stderr).toMatch(/alertname: BackupLastRunFailed, time: 30d,\s+exp:\[[^\]]+\],\s+got:\[\]/);
  });

  it('the recording rule docs/runs-and-alerts.md shows is the one in the file, word for word', async () => {
    const docs = await readFile(DOCS, 'utf8');
    const shown = /^```yaml\n(- record: backupstats:backup_last_success:timestamp_seconds\n[\s\S]*?)^```$/m.exec(
      docs,
    )?.[1];
    expect(shown).toBeDefined();
    const rules = await readFile(RULES, 'utf8');
    // The same lines, indented for the group's list of rules.
    const indented = (shown ?? '').replace(/^(?=.)/gm, '      ');
    expect(rules).toContain(indented);
  });

  it('the absence alert of docs/runs-and-alerts.md is the expression the unit tests evaluate', async () => {
    const docs = await readFile(DOCS, 'utf8');
    const example = /`(absent_over_time\([^`]+\))`/.exec(docs)?.[1];
    expect(example).toContain('{job="nightly-backup"}');
    const tests = await readFile(join(ALERTS_DIR, 'backupstats.rules.test.yml'), 'utf8');
    // Evaluated there, it returns the job's label: {job="nightly-backup"} 1.
    expect(tests).toContain(
      `- expr: '${example}'\n        eval_time: 3h\n        exp_samples:\n          - labels: '{job="nightly-backup"}'\n            value: 1\n`,
    );
  });

  it('the maximum age is read from its recording rule: set to 2 hours, the unit tests of the 26-hour age fail', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'backupstats-rules-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    await cp(ALERTS_DIR, dir, { recursive: true });
    const rules = await readFile(RULES, 'utf8');
    expect(rules).toContain('expr: vector(93600)');
    await writeFile(join(dir, 'backupstats.rules.yml'), rules.replace('expr: vector(93600)', 'expr: vector(7200)'));
    // The file whose unit tests check the 26-hour age; the others, the 30-day one above all, add only time.
    const tested = await promtool(['test', 'rules', 'backupstats.rules.test.yml'], dir);
    expect(tested.code).toBe(1);
    // promtool writes the failures on stderr.
    expect(tested.stderr).toMatch(/FAILED:\s+alertname: BackupTooOld, time: 1d2h,\s+exp:\[\],\s+got:\[/);
  });
});

it.skipIf(!promtoolBinary && !requireE2E)(
  'the verify age and the stored ratio change are read from their recording rules: changed, their unit tests fail',
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'backupstats-rules-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    await cp(ALERTS_DIR, dir, { recursive: true });
    const rules = await readFile(RULES, 'utf8');
    expect(rules).toContain('expr: vector(604800)');
    expect(rules).toContain('expr: vector(0.5)');
    const changed = rules.replace('expr: vector(604800)', 'expr: vector(600000)').replace('vector(0.5)', 'vector(2)');
    await writeFile(join(dir, 'backupstats.rules.yml'), changed);
    const tested = await promtool(['test', 'rules', 'backupstats.rules.verify-prune.test.yml'], dir);
    expect(tested.code).toBe(1);
    // 600,000 s after the last verify at 2 h is 6 d 22 h 40 min: the alert fires at 170 h already.
    expect(tested.stderr).toMatch(
      /alertname: BackupNotVerified, time: 7d2h,\s+exp:\[[^\]]+\],\s+got:\[[^\]]+job="nightly"/,
    );
    // A move of 0.6 from the median 0.4 is within twice the median.
    expect(tested.stderr).toMatch(/alertname: BackupStoredRatioChanged, time: 7d2h,\s+exp:\[[^\]]+\],\s+got:\[\]/);
  },
);

it.skipIf(!promtoolBinary && !requireE2E)(
  'the allowed stall is read from its recording rule: set to 30 minutes, the stall tests of 10 minutes fail',
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'backupstats-rules-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    await cp(ALERTS_DIR, dir, { recursive: true });
    const rules = await readFile(RULES, 'utf8');
    expect(rules).toContain('expr: vector(600)');
    await writeFile(join(dir, 'backupstats.rules.yml'), rules.replace('expr: vector(600)', 'expr: vector(1800)'));
    const tested = await promtool(['test', 'rules', 'backupstats.rules.stall.test.yml'], dir);
    expect(tested.code).toBe(1);
    expect(tested.stderr).toMatch(/alertname: BackupStalled, time: 21m,\s+exp:\[[^\]]+\],\s+got:\[\]/);
    expect(tested.stderr).toMatch(/alertname: RestoreStalled, time: 12m,\s+exp:\[[^\]]+\],\s+got:\[\]/);
  },
);

describe.skipIf(!prometheusBinary && !requireE2E)('the alerting rules in a real Prometheus scraping the demo', () => {
  it('a failed backup run after a successful one: BackupLastRunFailed fires, with the run series of the failure', async ({
    startPrometheus,
  }) => {
    const work = await mkdtemp(join(tmpdir(), 'backupstats-alerts-'));
    onTestFinished(() => rm(work, { recursive: true, force: true }));
    const source = join(work, 'source');
    await mkdir(source);
    for (const name of ['a.txt', 'b.txt']) await writeFile(join(source, name), `${name}\n`.repeat(10_000));
    const port = await freePort();
    const prometheus = await startPrometheus([`127.0.0.1:${port}`], { ruleFiles: [RULES] });

    /** The demo: one backup, then its Prometheus endpoint served until SIGTERM. */
    const serve = async (args: string[]): Promise<NodeProcess> => {
      const demo = startCli([...args, '--serve', '--quiet'], {
        env: { OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1', OTEL_EXPORTER_PROMETHEUS_PORT: String(port) },
      });
      onTestFinished(() => demo.kill());
      await waitForOutput(demo, (stdout) => /^serving /m.exec(stdout)?.[0], 'the demo serving its endpoint', 60_000);
      return demo;
    };
    const stop = async (demo: NodeProcess): Promise<void> => {
      demo.child.kill('SIGTERM');
      await demo.exited;
    };
    const labels = { job: 'backupstats', component: 'BackupEngine', implementation: 'Builtin', operation: 'Backup' };

    // A successful backup, scraped, while the rules are evaluated: no failure alert.
    const first = await serve(['backup', source, join(work, 'storage-1')]);
    await prometheus.waitForSamples('backupstats:backup_max_age:seconds');
    await prometheus.waitForSamples('backupstats:backup_last_success:timestamp_seconds');
    expect(await lastRunFailed(prometheus)).toEqual([]);
    await stop(first);

    // The next run, a new process on the same endpoint, fails: its source folder is gone.
    await serve(['backup', join(work, 'no-such-folder'), join(work, 'storage-2')]);
    const fired = await lastRunFailedFiring(prometheus);
    expect(fired?.labels).toEqual({ alertname: 'BackupLastRunFailed', severity: 'warning', ...labels });
    expect(fired?.annotations.summary).toBe('The last backup of backupstats failed');
    const [failure] = await prometheus.query('backup_runs_total{outcome="failure"} > 0');
    expect(failure?.metric).toMatchObject({ ...labels, outcome: 'failure', error_type: 'source' });
    expect(failure?.value).toBe(1);
    // The failure came after the success it is compared with, as the recording rules carry them.
    const [order] = await prometheus.query(
      'backupstats:backup_last_failure:timestamp_seconds - backupstats:backup_last_success:timestamp_seconds',
    );
    expect(order?.metric).toEqual(labels);
    expect(order?.value).toBeGreaterThan(0);
  });
});
