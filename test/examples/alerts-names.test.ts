// The names and labels docs/runs-and-alerts.md gives for the series of the alerting rules, checked in a real
// Prometheus scraping the demo: under Vitess naming with the relabel rule of docs/naming.md, every series its
// "Vitess names" paragraph names exists, and no other series is renamed; `job` is the scrape job's name, not the
// service name, which the join that the docs and the rules file give brings onto the series.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NodeProcess } from '@backupstats/testkit/node-process';
import { describe, expect, onTestFinished } from 'vitest';
import { EXAMPLES_DIR, startCli } from '../../packages/examples/test-support/run-cli.js';
import { waitForOutput } from '../support/child.js';
import { it } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';
import { prometheusBinary, requireE2E } from '../support/prometheus.js';
import {
  exposedNames,
  namesAfterRelabel,
  SCRAPE_SERIES,
  vitessCounterNames,
  vitessRelabelConfigs,
} from '../support/vitess-relabel.js';

const DOCS = join(EXAMPLES_DIR, '..', '..', 'docs', 'runs-and-alerts.md');
const RULES = join(EXAMPLES_DIR, 'alerts', 'backupstats.rules.yml');

/** A work folder with a source folder of two files to back up, removed when the test ends. */
async function workFolder(): Promise<{ work: string; source: string }> {
  const work = await mkdtemp(join(tmpdir(), 'backupstats-alerts-'));
  onTestFinished(() => rm(work, { recursive: true, force: true }));
  const source = join(work, 'source');
  await mkdir(source);
  for (const name of ['a.txt', 'b.txt']) await writeFile(join(source, name), `${name}\n`.repeat(10_000));
  return { work, source };
}

/** The demo: one backup, then its Prometheus endpoint served on `port` until SIGTERM, killed when the test ends. */
async function serveDemo(args: string[], port: number, env: Record<string, string> = {}): Promise<NodeProcess> {
  const demo = startCli([...args, '--serve', '--quiet'], {
    env: { OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1', OTEL_EXPORTER_PROMETHEUS_PORT: String(port), ...env },
  });
  onTestFinished(() => demo.kill());
  await waitForOutput(demo, (stdout) => /^serving /m.exec(stdout)?.[0], 'the demo serving its endpoint', 60_000);
  return demo;
}

async function stopDemo(demo: NodeProcess): Promise<void> {
  demo.child.kill('SIGTERM');
  await demo.exited;
}

/** Every metric name Prometheus has held for the scrape job, stale series included. */
async function namesHeld(url: string): Promise<string[]> {
  const response = await fetch(
    `${url}/api/v1/label/__name__/values?match[]=${encodeURIComponent('{job="backupstats"}')}`,
  );
  const body = (await response.json()) as { status: string; data?: string[] };
  if (body.status !== 'success' || body.data === undefined) throw new Error(`label values: ${response.status}`);
  return body.data.filter((name) => !SCRAPE_SERIES.includes(name)).sort();
}

describe.skipIf(!prometheusBinary && !requireE2E)('the names docs/runs-and-alerts.md gives, on a real scrape', () => {
  it('Vitess names with the relabel rule of docs/naming.md: every name of the "Vitess names" paragraph exists, no other series is renamed', async ({
    startPrometheus,
  }) => {
    const docs = await readFile(DOCS, 'utf8');
    const paragraph = /^- \*\*Vitess names\*\*[\s\S]*?(?=^- |^$)/m.exec(docs)?.[0] ?? '';
    const named = [...new Set([...paragraph.matchAll(/`(vtbackup_\w+)`/g)].map((m) => m[1] as string))];
    // The rules' series and the per-operation counters.
    expect(named).toContain('vtbackup_backup_run_count_total');
    expect(named).toContain('vtbackup_backup_bytes');

    const { work, source } = await workFolder();
    const port = await freePort();
    const prometheus = await startPrometheus([`127.0.0.1:${port}`], { metricRelabelConfigs: vitessRelabelConfigs() });
    const env = { BACKUPSTATS_NAMING: 'vitess', BACKUPSTATS_METRIC_PREFIX: 'vtbackup_' };
    const url = `http://127.0.0.1:${port}/metrics`;

    // A successful backup, then a failed one (its source folder is missing), each a new process.
    const first = await serveDemo(['backup', source, join(work, 'storage-1')], port, env);
    const exposed = await exposedNames(url);
    await prometheus.waitForSamples('vtbackup_backup_last_success_timestamp_seconds');
    await stopDemo(first);
    await serveDemo(['backup', join(work, 'no-such-folder'), join(work, 'storage-2')], port, env);
    exposed.push(...(await exposedNames(url)));
    await prometheus.waitForSamples('vtbackup_backup_last_failure_timestamp_seconds');

    // Every name the paragraph gives is a series Prometheus holds, and the failure's reason is `reason`.
    const held = await namesHeld(prometheus.url);
    expect(named.filter((name) => !held.includes(name))).toEqual([]);
    const [failure] = await prometheus.query('vtbackup_backup_run_count_total{outcome="failure"} > 0');
    expect(failure?.metric).toMatchObject({ reason: 'source' });
    // The rule renamed the backup counters and nothing else.
    for (const counter of vitessCounterNames('vtbackup_').filter((name) => name.startsWith('vtbackup_backup_'))) {
      expect(held).toContain(counter);
    }
    expect(held).toEqual(namesAfterRelabel(exposed, 'vtbackup_'));
  });

  it("job is the scrape job's name, not OTEL_SERVICE_NAME; the target_info join of the docs and the rules file brings the service name", async ({
    startPrometheus,
  }) => {
    const docs = await readFile(DOCS, 'utf8');
    const documented = /^```promql\n(.+ group_left \(service_name\) target_info)\n```$/m.exec(docs)?.[1];
    expect(documented).toBeDefined();
    const query = documented as string;
    // The rules file's comment gives the same join.
    expect(await readFile(RULES, 'utf8')).toContain(`#   ${query}\n`);

    const { work, source } = await workFolder();
    const port = await freePort();
    const prometheus = await startPrometheus([`127.0.0.1:${port}`], { ruleFiles: [RULES] });
    await serveDemo(['backup', source, join(work, 'storage')], port, { OTEL_SERVICE_NAME: 'nightly-db-backup' });

    // The rules' series carry the scrape job's name (startPrometheus's job_name), not the service name.
    const [carried] = await prometheus.waitForSamples('backupstats:backup_last_success:timestamp_seconds');
    expect(carried?.metric).toEqual({
      __name__: 'backupstats:backup_last_success:timestamp_seconds',
      job: 'backupstats',
      component: 'BackupEngine',
      implementation: 'Builtin',
      operation: 'Backup',
    });
    expect(await prometheus.query('{job="nightly-db-backup"}')).toEqual([]);
    // The service name is the service_name of target_info, and the join puts it on the series, value unchanged.
    const [joined] = await prometheus.waitForSamples(query);
    expect(joined?.metric).toMatchObject({
      job: 'backupstats',
      service_name: 'nightly-db-backup',
      operation: 'Backup',
    });
    const [gauge] = await prometheus.query('backup_last_success_timestamp');
    expect(joined?.value).toBe(gauge?.value);
  });
});
