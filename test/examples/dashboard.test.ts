import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import type { NodeProcess } from '@backupstats/testkit/node-process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES_DIR, startCli } from '../../packages/examples/test-support/run-cli.js';
import { waitForOutput } from '../support/child.js';
import { freePort } from '../support/free-port.js';
import {
  type PrometheusServer,
  type PromSample,
  prometheusBinary,
  requireE2E,
  startPrometheus,
} from '../support/prometheus.js';
import {
  type Endpoint,
  type S3Proxy,
  S3RVER_CREDENTIALS,
  s3Client,
  startS3Proxy,
  startS3Server,
} from '../support/s3.js';

interface Dashboard {
  panels: { title: string; type: string; targets?: { expr: string }[] }[];
}

/** Grafana's variables, as Grafana would fill them for a scrape every second and every job. */
function substitute(expr: string): string {
  return expr.replaceAll('$__rate_interval', '15s').replaceAll('$job', '.+').replaceAll('$service', '.*');
}

const SIZE = 2 * 1024 * 1024;
const FILES = 10;

describe.skipIf(!prometheusBinary && !requireE2E)(
  'the Grafana dashboard against a real Prometheus that scraped the demo',
  () => {
    let demo: NodeProcess | undefined;
    let prometheus: PrometheusServer | undefined;
    let s3: Endpoint | undefined;
    let proxy: S3Proxy | undefined;

    /** Resolves once the demo printed a line matching `pattern`. */
    const printed = (pattern: RegExp): Promise<RegExpExecArray> =>
      waitForOutput(
        demo as NodeProcess,
        (stdout) => pattern.exec(stdout) ?? undefined,
        `the demo's ${pattern}`,
        60_000,
      );

    beforeAll(async () => {
      const port = await freePort();
      // A real S3 server behind a proxy that throttles (503 SlowDown) or resets the first attempt of some
      // requests, so that the S3 panels of failed and throttled attempts have data; the retries pass.
      s3 = await startS3Server();
      const client = s3Client(s3);
      await client.send(new CreateBucketCommand({ Bucket: 'backups' }));
      client.destroy();
      let requests = 0;
      proxy = await startS3Proxy(s3, ({ attempt }) => {
        if (attempt > 1) return undefined;
        requests += 1;
        return requests % 5 === 0 ? 'slowdown' : requests % 5 === 2 ? 'reset' : undefined;
      });
      // The demo loops over backup/restore cycles, so that rates have real values while Prometheus scrapes.
      const loop = [
        '--loop',
        '--serve',
        '--quiet',
        '--size',
        String(SIZE / (1024 * 1024)),
        '--files',
        String(FILES),
        '--storage',
        's3://backups/loop',
      ];
      demo = startCli(loop, {
        env: {
          AWS_ENDPOINT_URL: proxy.url,
          AWS_REGION: 'us-east-1',
          AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
          AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
          OTEL_METRICS_EXPORTER: 'prometheus',
          OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
          OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
          OTEL_SERVICE_NAME: 'backup-demo',
        },
      });
      await printed(/^looping/m);
      prometheus = await startPrometheus([`127.0.0.1:${port}`], { scrapeIntervalSeconds: 1 });
    });

    afterAll(async () => {
      await demo?.kill();
      await prometheus?.stop();
      await proxy?.stop();
      await s3?.stop();
    });

    it('every query of every panel returns finite data, and the totals match what the demo backed up', async () => {
      const server = prometheus as PrometheusServer;
      const loop = demo as NodeProcess;
      const dashboard = JSON.parse(
        await readFile(join(EXAMPLES_DIR, 'dashboards', 'backupstats.json'), 'utf8'),
      ) as Dashboard;
      const queries = dashboard.panels.flatMap((panel) =>
        (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: substitute(target.expr) })),
      );
      expect(queries.length).toBeGreaterThanOrEqual(30);
      const finite = (samples: PromSample[]) => samples.length > 0 && samples.every((s) => Number.isFinite(s.value));
      for (const { panel, expr } of queries) {
        const samples = await server.waitForSamples(expr, finite, 45_000);
        expect(samples.length, `${panel}: ${expr}`).toBeGreaterThan(0);
      }
      // The per-operation panels show every metered stage of both families.
      const operations = await server.query(
        substitute(
          dashboard.panels.find((p) => p.title === 'Backup time share per operation')?.targets?.[0]?.expr ?? '',
        ),
      );
      // Objects of 2 MiB / 10 files go up in one PutObject each: the S3 storage side is Destination:Write alone, and
      // the request attempts (the same time again) are left out of the shares.
      expect(new Set(operations.map((s) => `${s.metric.operation} ${s.metric.implementation}`))).toEqual(
        new Set(
          ['Source:Open', 'Source:Read', 'Source:Close', 'Compressor:Write', 'Compressor:Close']
            .map((o) => `${o} Builtin`)
            .concat('Destination:Write S3'),
        ),
      );
      // The storage row: failed and throttled S3 attempts of both families are on the graph.
      const seen = new Set<string>();
      for (const target of dashboard.panels.find((p) => p.title === 'Storage failed and throttled attempts')?.targets ??
        []) {
        for (const sample of await server.query(substitute(target.expr))) {
          expect(sample.value).toBeGreaterThan(0);
          expect(sample.value).toBeLessThan(1);
          seen.add(sample.metric.operation ?? '');
        }
      }
      expect(seen).toEqual(new Set(['AWS:Request:Failed', 'AWS:Request:Throttled']));

      // The latency row: the storage heatmap has attempts in more than one bucket, and the p99 panel shows the throttled
      // attempts' own tail next to all attempts'.
      const heatmap =
        dashboard.panels.find((p) => p.title === 'Storage request latency heatmap')?.targets?.[0]?.expr ?? '';
      const buckets = await server.query(substitute(heatmap));
      expect(buckets.filter((s) => s.value > 0).length).toBeGreaterThan(1);
      const tails = new Set<string>();
      for (const target of dashboard.panels.find((p) => p.title.startsWith('Storage request latency p99'))?.targets ??
        []) {
        for (const sample of await server.query(substitute(target.expr))) tails.add(sample.metric.operation ?? '');
      }
      expect(tails).toEqual(new Set(['AWS:Request:Send', 'AWS:Request:Failed', 'AWS:Request:Throttled']));

      // The busy share per operation: the same stages, each busy part of the time.
      const busyShares = await server.query(
        substitute(
          dashboard.panels.find((p) => p.title === 'Backup busy share per operation')?.targets?.[0]?.expr ?? '',
        ),
      );
      expect(new Set(busyShares.map((s) => `${s.metric.operation} ${s.metric.implementation}`))).toEqual(
        new Set(operations.map((s) => `${s.metric.operation} ${s.metric.implementation}`)),
      );
      for (const share of busyShares) expect(share.value).toBeGreaterThan(0);

      // Shares of one whole: they add up to 1.
      expect(operations.reduce((sum, s) => sum + s.value, 0)).toBeCloseTo(1, 6);

      // Stop the loop: the demo prints its summary and keeps serving the final totals.
      loop.child.kill('SIGINT');
      await printed(/^serving /m);
      const cycles = Number([...loop.stdout().matchAll(/^cycles: (\d+)$/gm)].at(-1)?.[1]);
      expect(cycles).toBeGreaterThan(0);
      const one = (value: number) => (samples: PromSample[]) => samples.length === 1 && samples[0]?.value === value;
      await server.waitForSamples(
        'sum(backup_bytes_total{component="BackupEngine", operation="Source:Read"})',
        one(cycles * SIZE),
      );
      await server.waitForSamples(
        'sum(backup_operations_total{component="BackupEngine", operation="Source:Open"})',
        one(cycles * FILES),
      );
      await server.waitForSamples(
        'sum(restore_bytes_total{component="BackupEngine", operation="Destination:Write"})',
        one(cycles * SIZE),
      );
      await server.waitForSamples('sum(backup_operations_total{operation="Backup"})', one(cycles));
      await server.waitForSamples('sum(restore_operations_total{operation="Restore"})', one(cycles));
      // Every throttled attempt the demo exported is one SlowDown the proxy answered (the unmetered clean-up of each
      // cycle's objects gets its share of them too, so at most).
      const throttled = await server.query(
        'sum(backup_operations_total{operation="AWS:Request:Throttled"}) + sum(restore_operations_total{operation="AWS:Request:Throttled"})',
      );
      expect(throttled[0]?.value).toBeGreaterThan(0);
      expect(throttled[0]?.value).toBeLessThanOrEqual(proxy?.counts.slowDowns ?? 0);

      // The Runs row: every cycle is one successful backup run and one successful restore run, and none failed.
      const runsPanel = dashboard.panels.find((p) => p.title === 'Runs by outcome');
      expect(runsPanel?.targets?.map((t) => t.expr)).toEqual([
        expect.stringContaining('backup_runs_total'),
        expect.stringContaining('restore_runs_total'),
      ]);
      await server.waitForSamples('sum(backup_runs_total{outcome="success"})', one(cycles));
      await server.waitForSamples('sum(restore_runs_total{outcome="success"})', one(cycles));
      await server.waitForSamples(
        'sum(backup_runs_total{outcome="failure"}) + sum(restore_runs_total{outcome="failure"})',
        one(0),
      );
      await server.waitForSamples('sum(backup_run_duration_count{outcome="success"})', one(cycles));
      await server.waitForSamples('max(backup_last_success_bytes)', one(SIZE));

      // The Verify and prune row: every cycle verified what it restored and pruned its backups to the newest three;
      // the last backup stored less than it read (gzip).
      await server.waitForSamples('sum(verify_runs_total{outcome="success"})', one(cycles));
      await server.waitForSamples('sum(verify_bytes_total{operation="Verify"})', one(cycles * SIZE));
      await server.waitForSamples('sum(prune_runs_total{outcome="success"})', one(cycles));
      await server.waitForSamples(
        'sum(prune_operations_total{operation="Prune:Delete"})',
        one(Math.max(0, cycles - 3)),
      );
      const ratio = await server.query(
        substitute(
          dashboard.panels.find((p) => p.title === 'Stored / read of the last successful backup')?.targets?.[0]?.expr ??
            '',
        ),
      );
      expect(ratio[0]?.value).toBeGreaterThan(0);
      expect(ratio[0]?.value).toBeLessThan(1);
      const age = await server.query(
        substitute(
          dashboard.panels.find((p) => p.title === 'Time since the last successful backup')?.targets?.[0]?.expr ?? '',
        ),
      );
      expect(age[0]?.value).toBeGreaterThanOrEqual(0);
      expect(age[0]?.value).toBeLessThan(600);

      // The Progress row: the last backup and restore each moved their whole size (read, then written), with nothing
      // left and no run in progress once the loop stopped; the busy shares are of the same stages as the time shares.
      for (const family of ['backup', 'restore']) {
        await server.waitForSamples(`max(${family}_run_progress)`, one(1));
        await server.waitForSamples(`max(${family}_run_remaining_time)`, one(0));
        await server.waitForSamples(`sum(${family}_active_runs)`, one(0));
      }
      const busy = dashboard.panels.find((p) => p.title === 'Backup busy share per operation')?.targets?.[0]?.expr;
      expect(busy).toBeDefined();
      const progressPanels = dashboard.panels.filter((p) => p.title === 'Run progress' || p.title === 'Run time left');
      expect(progressPanels.flatMap((p) => p.targets ?? []).map((t) => t.expr)).toEqual([
        expect.stringContaining('backup_run_progress'),
        expect.stringContaining('restore_run_progress'),
        expect.stringContaining('backup_run_remaining_time'),
        expect.stringContaining('restore_run_remaining_time'),
      ]);

      loop.child.kill('SIGTERM');
      expect((await loop.exited).code, loop.stderr()).toBe(0);
    });
  },
);
