// Shell pipelines under `backupstats run`, exported through the two exporters a cron job uses: the textfile read by
// a real node_exporter, and a real Pushgateway (one of each for the file). Each names its bottleneck: gzip -9 on
// data it compresses slowly bounds the first pipeline (Compressor:Write); a destination slower than gzip -1 bounds the
// second (Destination:Write). Both in the report and in the exported time per stage. The data is random letters of
// a 16-letter alphabet: gzip -9 takes it at about 20 MB/s and gzip -1 at 70 MB/s here, far from `cat` (1 GB/s) and
// from the slow sink (1.5 MiB/s), so the bottleneck does not depend on how busy the machine is: the sink takes some
// 0.7 s over the 1.1 MiB gzip -1 makes of 2 MiB, which gzip compresses in 30 ms.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeExporterServer, nodeExporterBinary, startNodeExporter } from '../../../test/support/node-exporter.js';
import { requireE2E } from '../../../test/support/prometheus.js';
import type { Sample } from '../../../test/support/pushgateway/exposition.js';
import { sampleValue } from '../../../test/support/pushgateway/group-series.js';
import {
  type PushgatewayServer,
  pushgatewayBinary,
  startPushgateway,
} from '../../../test/support/pushgateway/server.js';
import { CHROMIUM, closeBrowser, openReport } from '../../../test/support/report-browser.js';
import { runShell, tempDir } from './cli-process.js';

const SLOW_SINK = fileURLToPath(new URL('./fixtures/slow-sink.mjs', import.meta.url));
const SCREENSHOT = resolve(process.env.BACKUPSTATS_SCREENSHOT_PATH ?? 'reports/browser/shell-pipeline.png');
const skip = (!nodeExporterBinary || !pushgatewayBinary) && !requireE2E;
const STAGES = ['Source:Read', 'Compressor:Write', 'Destination:Write'];

/** `bytes` random letters a to p. */
function letters(bytes: number): Buffer {
  const data = randomBytes(bytes);
  for (let i = 0; i < data.length; i++) data[i] = 97 + ((data[i] as number) & 15);
  return data;
}

interface ReportRun {
  operation: string;
  outcome: string;
  bytes: number;
  bottleneck: { operation: string; busyShare: number; sentence: string } | null;
  stages: Array<{ operation: string; busyShare: number }>;
}

function reportRuns(path: string): ReportRun[] {
  const html = readFileSync(path, 'utf8');
  const json = /<script type="application\/json" id="backupstats-report">(.*?)<\/script>/s.exec(html)?.[1];
  return (JSON.parse(json ?? 'null') as { runs: ReportRun[] }).runs;
}

/** The stage with the most exported time (`backup_time_total`), among the pipeline's three. */
function busiestExported(samples: readonly Sample[], labels: Record<string, string>): string | undefined {
  const times = STAGES.map((operation) => ({
    operation,
    seconds: sampleValue(samples, 'backup_time_total', { ...labels, operation }) ?? 0,
  }));
  return times.sort((a, b) => b.seconds - a.seconds)[0]?.operation;
}

describe.skipIf(skip)('shell pipelines metered by backupstats run, through node_exporter and the Pushgateway', () => {
  let node: NodeExporterServer;
  let pushgateway: PushgatewayServer;
  beforeAll(async () => {
    [node, pushgateway] = await Promise.all([startNodeExporter(), startPushgateway()]);
  });
  afterAll(async () => {
    await Promise.all([node?.stop(), pushgateway?.stop(), closeBrowser()]);
  });

  it("gzip -9 bounds the pipeline: node_exporter serves exact bytes per stage, Compressor:Write has the most time and is the report's bottleneck", {
    // 16 MiB through gzip -9: about a second of CPU, many times the other stages' (cat and the write of out.gz)
    // whatever the load; more wall time on a busy machine.
    timeout: 60_000,
  }, async () => {
    const dir = tempDir('pipeline');
    writeFileSync(join(dir, 'big.bin'), letters(16 * 1024 * 1024));
    const report = join(dir, 'report.html');
    const ended = await runShell(
      "backupstats run -- sh -c 'cat big.bin | backupstats meter -q --operation Source:Read | gzip -9 | backupstats meter -q --operation Compressor:Write > out.gz'",
      {
        cwd: dir,
        env: {
          OTEL_METRICS_EXPORTER: 'textfile',
          BACKUPSTATS_TEXTFILE_PATH: join(node.dir, 'shell-gzip9.prom'),
          OTEL_SERVICE_NAME: 'shell-gzip9',
          BACKUPSTATS_REPORT_PATH: report,
        },
      },
    );
    expect(ended, ended.stderr).toMatchObject({ code: 0, stderr: '' });
    const gz = statSync(join(dir, 'out.gz')).size;
    const samples = await node.samples();
    const job = { service_name: 'shell-gzip9', component: 'BackupEngine', implementation: 'Shell' };
    const bytes = STAGES.map((operation) => sampleValue(samples, 'backup_bytes_total', { ...job, operation }));
    expect(bytes).toEqual([16 * 1024 * 1024, gz, gz]);
    expect(sampleValue(samples, 'backup_runs_total', { ...job, operation: 'Backup', outcome: 'success' })).toBe(1);
    expect(sampleValue(samples, 'node_textfile_scrape_error', {})).toBe(0);
    expect(busiestExported(samples, job)).toBe('Compressor:Write');

    const [run] = reportRuns(report);
    expect(run?.bottleneck?.operation, JSON.stringify(run?.stages)).toBe('Compressor:Write');
    if (existsSync(CHROMIUM) || requireE2E) {
      const { page, errors } = await openReport(report);
      expect(errors).toEqual([]);
      await mkdir(dirname(SCREENSHOT), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
    }
  });

  it('a destination slower than gzip -1 bounds it: the Pushgateway holds exact bytes, Destination:Write has the most time and is the bottleneck', async () => {
    const dir = tempDir('pipeline');
    const data = letters(2 * 1024 * 1024);
    writeFileSync(join(dir, 'data.bin'), data);
    const report = join(dir, 'report.html');
    const ended = await runShell(
      `gzip -1 -n < data.bin > expected.gz && backupstats run -- sh -c 'cat data.bin | backupstats meter -q --operation Source:Read | gzip -1 -n | backupstats meter -q --operation Compressor:Write | "${process.execPath}" "${SLOW_SINK}"'`,
      {
        cwd: dir,
        env: {
          OTEL_METRICS_EXPORTER: 'pushgateway',
          BACKUPSTATS_PUSHGATEWAY_URL: pushgateway.url,
          OTEL_SERVICE_NAME: 'shell-slow-sink',
          BACKUPSTATS_REPORT_PATH: report,
        },
      },
    );
    expect(ended, ended.stderr).toMatchObject({ code: 0, stderr: '' });
    const gz = statSync(join(dir, 'expected.gz')).size;
    const samples = await pushgateway.samples();
    const job = { job: 'shell-slow-sink', component: 'BackupEngine', implementation: 'Shell' };
    const bytes = STAGES.map((operation) => sampleValue(samples, 'backup_bytes_total', { ...job, operation }));
    expect(bytes).toEqual([data.length, gz, gz]);
    expect(sampleValue(samples, 'backup_runs_total', { ...job, operation: 'Backup', outcome: 'success' })).toBe(1);
    expect(busiestExported(samples, job)).toBe('Destination:Write');
    const [run] = reportRuns(report);
    expect(run?.bottleneck?.operation, JSON.stringify(run?.stages)).toBe('Destination:Write');
  });
});
