import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES_DIR, startCli } from '../packages/examples/test-support/run-cli.js';
import { freePort } from './support/free-port.js';
import { type PrometheusServer, type PromSample, prometheusBinary, requireE2E, startPrometheus } from './support/prometheus.js';

interface Dashboard {
  panels: { title: string; targets: { expr: string }[] }[];
}

/** Grafana's variables, as Grafana would fill them for a scrape every second and every job. */
function substitute(expr: string): string {
  return expr.replaceAll('$__rate_interval', '15s').replaceAll('$job', '.+');
}

const SIZE = 2 * 1024 * 1024;
const FILES = 10;

describe.skipIf(!prometheusBinary && !requireE2E)('the Grafana dashboard against a real Prometheus that scraped the demo', () => {
  let demo: ChildProcess;
  let prometheus: PrometheusServer | undefined;
  let stdout = '';
  let exited: Promise<number | null>;

  const waitForOutput = async (pattern: RegExp, timeoutMs = 60_000): Promise<RegExpExecArray> => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(stdout);
      if (match !== null) return match;
      if (Date.now() > until || demo.exitCode !== null) throw new Error(`the demo did not print ${pattern}:\n${stdout}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  beforeAll(async () => {
    const port = await freePort();
    // The demo loops over backup/restore cycles, so that rates have real values while Prometheus scrapes.
    demo = startCli(['--loop', '--serve', '--quiet', '--size', String(SIZE / (1024 * 1024)), '--files', String(FILES)], {
      env: {
        OTEL_METRICS_EXPORTER: 'prometheus',
        OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
        OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
        OTEL_SERVICE_NAME: 'backup-demo',
      },
    });
    demo.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    demo.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    exited = new Promise((resolve) => demo.once('exit', (code) => resolve(code)));
    await waitForOutput(/^looping/m);
    prometheus = await startPrometheus([`127.0.0.1:${port}`], { scrapeIntervalSeconds: 1 });
  });

  afterAll(async () => {
    if (demo.exitCode === null && demo.signalCode === null) {
      demo.kill('SIGKILL');
      await exited;
    }
    await prometheus?.stop();
  });

  it('every query of every panel returns finite data, and the totals match what the demo backed up', async () => {
    const server = prometheus as PrometheusServer;
    const dashboard = JSON.parse(await readFile(join(EXAMPLES_DIR, 'dashboards', 'backupstats.json'), 'utf8')) as Dashboard;
    const queries = dashboard.panels.flatMap((panel) => panel.targets.map((target) => ({ panel: panel.title, expr: substitute(target.expr) })));
    expect(queries.length).toBeGreaterThanOrEqual(14);
    const finite = (samples: PromSample[]) => samples.length > 0 && samples.every((s) => Number.isFinite(s.value));
    for (const { panel, expr } of queries) {
      const samples = await server.waitForSamples(expr, finite, 45_000);
      expect(samples.length, `${panel}: ${expr}`).toBeGreaterThan(0);
    }
    // The per-operation panels show every metered stage of both families.
    const operations = await server.query(substitute(dashboard.panels.find((p) => p.title === 'Backup time share per operation')?.targets[0]?.expr ?? ''));
    expect(new Set(operations.map((s) => s.metric.operation))).toEqual(
      new Set(['Source:Open', 'Source:Read', 'Source:Close', 'Compressor:Write', 'Compressor:Close', 'Destination:Open', 'Destination:Write', 'Destination:Close', 'File:Write']),
    );

    // Shares of one whole: they add up to 1.
    expect(operations.reduce((sum, s) => sum + s.value, 0)).toBeCloseTo(1, 6);

    // Stop the loop: the demo prints its summary and keeps serving the final totals.
    demo.kill('SIGINT');
    await waitForOutput(/^serving /m);
    const cycles = Number([...stdout.matchAll(/^cycles: (\d+)$/gm)].at(-1)?.[1]);
    expect(cycles).toBeGreaterThan(0);
    const one = (value: number) => (samples: PromSample[]) => samples.length === 1 && samples[0]?.value === value;
    await server.waitForSamples('sum(backup_bytes_total{component="BackupEngine", operation="Source:Read"})', one(cycles * SIZE));
    await server.waitForSamples('sum(backup_operations_total{component="BackupEngine", operation="Source:Open"})', one(cycles * FILES));
    await server.waitForSamples('sum(restore_bytes_total{component="BackupEngine", operation="Destination:Write"})', one(cycles * SIZE));
    await server.waitForSamples('sum(backup_operations_total{operation="Backup"})', one(cycles));
    await server.waitForSamples('sum(restore_operations_total{operation="Restore"})', one(cycles));

    demo.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
