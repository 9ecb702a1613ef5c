import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { createBackupStats, createHistogramProducer } from 'backupstats';
import { createPushgatewayExporter } from 'backupstats/pushgateway';
import { createTextfileExporter } from 'backupstats/textfile';
import type { BenchConfig } from '../config.js';
import { CollectingReader, exportOnce } from '../harness/otel.js';
import { type Summary, summarize } from '../harness/sample.js';
import { startPushTarget, startSink } from '../pushgateway/push-target.js';

/** One job's export at a number of scopes (with their latency histograms): the file written, and the same pushed. */
export interface TextfileRow {
  readonly scopes: number;
  /** Bytes of the file node_exporter reads. */
  readonly fileBytes: number;
  /** One export by the textfile exporter: serialize, write a temporary file, fsync, rename, sync the directory, ms. */
  readonly writeMs: Summary;
  /** Bytes of the Pushgateway's body for the same metrics. */
  readonly pushBytes: number;
  /** One export by the Pushgateway exporter of the same collection, in the same run, ms. */
  readonly pushMs: Summary;
  /** Where the timed pushes went. */
  readonly pushTarget: string;
  /** The file system of the directory written to (its path), for the fsync's cost. */
  readonly directory: string;
}

/** What the textfile benchmark measured. */
export interface TextfileResult {
  readonly rows: readonly TextfileRow[];
}

const SCOPES = [10, 100, 1000] as const;

/**
 * One write of the textfile for a job of 10, 100 and 1,000 scopes with latency histograms, and the Pushgateway push of
 * the same collection, interleaved in one run: the file's bytes and the time of one export to a file in a temporary
 * directory (the fsync included), next to the body's bytes and the time of one push to a real Pushgateway on
 * 127.0.0.1 (a local sink when the binary is missing). Each scope records 20 operations first.
 */
export async function runTextfileWrite(config: BenchConfig): Promise<TextfileResult> {
  const target = await startPushTarget();
  const sink = await startSink();
  const dir = await mkdtemp(join(tmpdir(), 'backupstats-bench-textfile-'));
  const rows: TextfileRow[] = [];
  try {
    // --quick: a tenth of the scopes (the same code at every size; its figures mean nothing).
    for (const scopes of SCOPES.map((full) => (config.quick ? full / 10 : full))) {
      const histograms = createHistogramProducer();
      const reader = new CollectingReader({ metricProducers: [histograms] });
      const provider = new MeterProvider({ readers: [reader] });
      const stats = createBackupStats({ meterProvider: provider, histogramProducers: [histograms] });
      for (let i = 0; i < scopes; i++) {
        const handle = stats.backup.scope({
          component: 'BackupEngine',
          implementation: `Part${i % 10}`,
          operation: `Source:Read:${i}`,
        });
        for (let n = 0; n < 20; n++) handle.timedIncrementBytes(4096 + n, 0.125 * (n + 1));
      }
      const path = join(dir, `bench-${scopes}.prom`);
      const file = createTextfileExporter({ path });
      const job = { job: 'bench', instance: `textfile-${scopes}`, timeoutMillis: 30_000 };
      const pushed = createPushgatewayExporter({ ...job, url: target.url });
      const counted = createPushgatewayExporter({ ...job, url: sink.url });
      const { resourceMetrics } = await reader.collect();
      const times = config.quick ? 1 : scopes >= 1000 ? 30 : 100;
      const writeMs: number[] = [];
      const pushMs: number[] = [];
      for (let i = 0; i < times; i++) {
        let start = performance.now();
        await exportOnce(file, resourceMetrics);
        writeMs.push(performance.now() - start);
        start = performance.now();
        await exportOnce(pushed, resourceMetrics);
        pushMs.push(performance.now() - start);
      }
      await exportOnce(counted, resourceMetrics);
      rows.push({
        scopes,
        fileBytes: (await stat(path)).size,
        writeMs: summarize(writeMs),
        pushBytes: sink.last.bytes,
        pushMs: summarize(pushMs),
        pushTarget: target.kind,
        directory: dir,
      });
      await Promise.all([file.shutdown(), pushed.shutdown(), counted.shutdown()]);
      // The next row is a job of the same (default) service name: with this file there, it would be refused.
      await rm(path);
      await fetch(`${target.url}/metrics/job/bench/instance/${job.instance}`, { method: 'DELETE' });
      await stats.shutdown();
      await provider.shutdown();
    }
  } finally {
    await Promise.all([target.stop(), sink.stop(), rm(dir, { recursive: true, force: true })]);
  }
  return { rows };
}
