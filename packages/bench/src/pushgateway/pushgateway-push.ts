import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { createBackupStats, createHistogramProducer } from 'backupstats';
import { createPushgatewayExporter } from 'backupstats/pushgateway';
import type { BenchConfig } from '../config.js';
import { CollectingReader, exportOnce } from '../harness/otel.js';
import { type Summary, summarize } from '../harness/sample.js';
import { startPushTarget, startSink } from './push-target.js';

/** One job's push at a number of scopes. */
export interface PushgatewayRow {
  readonly scopes: number;
  /** Whether each scope carries its latency histogram (the default) or only its counters. */
  readonly histograms: boolean;
  /** Sample lines of the body (every counter, histogram bucket, _sum and _count, target_info). */
  readonly samples: number;
  /** Bytes of the serialized body, as the sink received it. */
  readonly bodyBytes: number;
  /** One export by the exporter: serialize, POST and the answer, ms. */
  readonly pushMs: Summary;
  /** The reader's collect() before it (the stats flushed, the histograms built), ms. */
  readonly collectMs: Summary;
  /** Where the timed pushes went. */
  readonly target: string;
}

/** What the Pushgateway benchmark measured. */
export interface PushgatewayResult {
  readonly rows: readonly PushgatewayRow[];
}

/** Scopes, and whether they keep latency histograms. */
const CASES: ReadonlyArray<readonly [number, boolean]> = [
  [10, true],
  [100, true],
  [1000, true],
  [10, false],
  [100, false],
  [1000, false],
];

/**
 * The push of one batch job at 10, 100 and 1,000 scopes: the size of the body it sends (each scope's three
 * counters and latency histogram, in the text format; then without histograms) and the time of one push to a real
 * Pushgateway on 127.0.0.1 (a local sink when the binary is missing). Each scope records 20 operations first, so
 * every series has data.
 */
export async function runPushgatewayPush(config: BenchConfig): Promise<PushgatewayResult> {
  const target = await startPushTarget();
  const sink = await startSink();
  const rows: PushgatewayRow[] = [];
  try {
    // --quick: a tenth of the scopes (the same code at every size; its figures mean nothing).
    for (const [full, withHistograms] of CASES) {
      const scopes = config.quick ? full / 10 : full;
      const histograms = createHistogramProducer();
      const reader = new CollectingReader({ metricProducers: [histograms] });
      const provider = new MeterProvider({ readers: [reader] });
      const stats = createBackupStats({
        meterProvider: provider,
        histogramProducers: [histograms],
        histograms: withHistograms,
      });
      for (let i = 0; i < scopes; i++) {
        const handle = stats.backup.scope({
          component: 'BackupEngine',
          implementation: `Part${i % 10}`,
          operation: `Source:Read:${i}`,
        });
        for (let n = 0; n < 20; n++) handle.timedIncrementBytes(4096 + n, 0.125 * (n + 1));
      }
      const job = { job: 'bench', instance: `scopes-${scopes}-${withHistograms}`, timeoutMillis: 30_000 };
      const timed = createPushgatewayExporter({ ...job, url: target.url });
      const counted = createPushgatewayExporter({ ...job, url: sink.url });
      const pushes = config.quick ? 1 : scopes >= 1000 ? 30 : 100;
      const pushMs: number[] = [];
      const collectMs: number[] = [];
      for (let i = 0; i < pushes; i++) {
        const collectStart = performance.now();
        const { resourceMetrics } = await reader.collect();
        collectMs.push(performance.now() - collectStart);
        const start = performance.now();
        await exportOnce(timed, resourceMetrics);
        pushMs.push(performance.now() - start);
      }
      await exportOnce(counted, (await reader.collect()).resourceMetrics);
      rows.push({
        scopes,
        histograms: withHistograms,
        samples: sink.last.samples,
        bodyBytes: sink.last.bytes,
        pushMs: summarize(pushMs),
        collectMs: summarize(collectMs),
        target: target.kind,
      });
      await Promise.all([timed.shutdown(), counted.shutdown()]);
      // The Pushgateway checks each push against every group it holds: the next row starts from an empty one.
      await fetch(`${target.url}/metrics/job/bench/instance/${job.instance}`, { method: 'DELETE' });
      await stats.shutdown();
      await provider.shutdown();
    }
  } finally {
    await Promise.all([target.stop(), sink.stop()]);
  }
  return { rows };
}
