import { loadavg } from 'node:os';
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import {
  Component,
  createHistogramProducer,
  DEFAULT_HISTOGRAM_BOUNDARIES,
  Implementation,
  Operation,
  type Stats,
} from 'backupstats';
import { type StartedBackupStats, startBackupStats } from 'backupstats/setup';
// The endpoint's serializer is internal to backupstats/setup: timed from its source, on the same collection.
import { serializePrometheus } from '../../../processor/src/setup/export/prometheus-text.js';
import type { BenchConfig } from '../config.js';
import { summarize } from '../harness/sample.js';
import { type PromClientTarget, startPromClientTarget } from './prom-client-target.js';
import { freePort, type Scraper, startScraper, threadBusyMs } from './scraper.js';

/** One side of a scrape served over HTTP: its size, and the time it took. */
export interface ServedScrape {
  /** The exposition's size, bytes, and its samples (lines that are not comments). */
  readonly bytes: number;
  readonly samples: number;
  /** Medians, ms: the whole HTTP scrape as the scraper saw it, and the time the serving thread was busy with it. */
  readonly scrapeMs: number;
  readonly threadMs: number;
}

/** A scrape of one size through backupstats/setup's endpoint, its parts timed apart, and prom-client beside it. */
export interface ScrapeRow {
  readonly series: number;
  readonly histograms: boolean;
  /** Every series had a record between two scrapes (else none had: their points are reused). */
  readonly allChanged: boolean;
  readonly backupstats: ServedScrape;
  /** Medians, ms: the reader's collection (the stats' flush, the SDK's counters, the histogram producer). */
  readonly collectMs: number;
  /** … of it, the histogram producer's points. */
  readonly producerMs: number;
  /** The endpoint's own serializer on the collected data, ms. */
  readonly serializeMs: number;
  /** exporter-prometheus' `PrometheusSerializer` on the same collected data: ms (median) and bytes. */
  readonly upstreamSerializeMs: number;
  readonly upstreamBytes: number;
  /** prom-client serving the same series and buckets, and its `registry.metrics()` alone. */
  readonly promClient: ServedScrape;
  readonly promClientMetricsMs: number;
  readonly scrapes: number;
}

/** A job recording on its series, in windows with one scrape each (a scrape a second) vs without. */
export interface RecordRateRow {
  readonly series: number;
  readonly histograms: boolean;
  /** Records per second, medians over the windows. */
  readonly unscrapedPerSecond: number;
  readonly scrapedPerSecond: number;
  /** scraped / unscraped, percent: the median of the pairs' ratios, and the lowest and highest. */
  readonly keptPercent: number;
  readonly keptMinPercent: number;
  readonly keptMaxPercent: number;
  /** The best scraped window over the best unscraped one, percent: what a machine with a core to spare would see. */
  readonly bestKeptPercent: number;
  /** Each window's length, and the number of pairs of windows (one scraped, one not). */
  readonly windowMillis: number;
  readonly pairs: number;
}

/** Results of the scrape benchmark. */
export interface ScrapeResult {
  readonly rows: readonly ScrapeRow[];
  readonly recordRate: RecordRateRow;
  /** The machine's 1-minute load average before and after: on a shared machine, how busy it was. */
  readonly loadAverage: readonly [number, number];
}

/** The labels of series `i`; series 0 is the demo's Source:Read, the others differ in the operation. */
const labelsOf = (i: number) => ({
  component: Component.BackupEngine,
  implementation: Implementation.Builtin,
  operation: i === 0 ? Operation.SourceRead : `op-${i}`,
});

/** Durations of one series' records, ms: spread over 10 µs … 10 s, so that every series fills many buckets. */
const DURATIONS = Array.from({ length: 200 }, (_, k) => 0.01 * 10 ** ((k * 7) / 200));

interface Job {
  readonly stats: StartedBackupStats;
  readonly handles: readonly Stats[];
  readonly url: string;
  /** A second reader on the same provider, with its own producer: the collection timed apart from the HTTP. */
  readonly probe: PrometheusExporter;
  /** The time of the probe's producer in the probe's last collection, ms. */
  readonly producerMs: () => number;
}

/** A job with the Prometheus endpoint of backupstats/setup, configured from the environment as users do. */
async function startJob(series: number, histograms: boolean): Promise<Job> {
  const port = await freePort();
  const producer = histograms ? createHistogramProducer() : undefined;
  // The probe's producer timed within the probe's own collection, where it does the same work as the endpoint's.
  // Its work is synchronous: timed up to its return, not to its promise's turn among the SDK's own continuations.
  let producerMs = 0;
  const timed = producer && {
    collect: (options?: { timeoutMillis?: number }) => {
      const start = performance.now();
      const result = producer.collect(options);
      producerMs = performance.now() - start;
      return result;
    },
  };
  const probe = new PrometheusExporter({
    preventServerStart: true,
    metricProducers: timed === undefined ? [] : [timed],
  });
  const stats = await startBackupStats({
    env: {
      OTEL_METRICS_EXPORTER: 'prometheus',
      OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
      OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
      OTEL_SERVICE_NAME: 'bench-job',
    },
    readers: [probe],
    histogramProducers: producer === undefined ? [] : [producer],
    histograms,
    maxScopes: series + 2,
    quiet: true,
  });
  const handles: Stats[] = [];
  for (let i = 0; i < series; i++) {
    const handle = stats.backup.scope(labelsOf(i));
    for (const ms of DURATIONS) handle.timedIncrementBytes(4096, ms);
    handles.push(handle);
  }
  await stats.flush();
  return { stats, handles, url: `http://127.0.0.1:${port}/metrics`, probe, producerMs: () => producerMs };
}

/** The number of samples of an exposition: its lines that are neither empty nor comments. */
function samplesOf(text: string): number {
  let samples = 0;
  for (const line of text.split('\n')) if (line !== '' && !line.startsWith('#')) samples++;
  return samples;
}

/** Scrapes `url` once from the scraper thread; the serving thread's busy time is measured around it. */
async function timedScrape(scraper: Scraper, url: string): Promise<{ bytes: number; ms: number; threadMs: number }> {
  const busy = threadBusyMs();
  const { bytes, ms } = await scraper.scrape(url);
  return { bytes, ms, threadMs: busy() };
}

/**
 * Series on backupstats/setup's Prometheus endpoint (configured from the environment), scraped over HTTP on
 * 127.0.0.1 by another thread as Prometheus would; the collection, the histogram producer and exporter-prometheus'
 * serializer timed apart on the same data; prom-client serving the same series and buckets beside it, in
 * interleaved rounds. Then the record rate of a job scraped every second next to the same job unscraped.
 */
export async function runScrape(config: BenchConfig): Promise<ScrapeResult> {
  const loadBefore = loadavg()[0] as number;
  const scraper = await startScraper();
  try {
    const rows: ScrapeRow[] = [];
    const sizes: readonly (readonly [number, boolean, boolean])[] = config.quick
      ? [
          [10, false, false],
          [10, true, false],
          [20, false, false],
          [20, true, false],
          [20, true, true],
        ]
      : [
          [100, false, false],
          [100, true, false],
          [2000, false, false],
          [2000, true, false],
          [2000, true, true],
        ];
    const scrapes = config.quick ? 1 : 15;
    const warmUp = config.quick ? 0 : 3;
    for (const [series, histograms, allChanged] of sizes) {
      rows.push(await measureSize(scraper, series, histograms, allChanged, scrapes, warmUp));
    }
    const recordRate = await measureRecordRate(scraper, config);
    return { rows, recordRate, loadAverage: [loadBefore, loadavg()[0] as number] };
  } finally {
    await scraper.stop();
  }
}

async function measureSize(
  scraper: Scraper,
  series: number,
  histograms: boolean,
  allChanged: boolean,
  scrapes: number,
  warmUp: number,
): Promise<ScrapeRow> {
  const job = await startJob(series, histograms);
  const prom: PromClientTarget = await startPromClientTarget(series, histograms, DEFAULT_HISTOGRAM_BOUNDARIES, {
    labelsOf,
    durationsMs: DURATIONS,
    bytes: 4096,
  });
  const upstream = new PrometheusSerializer();
  const ours = { scrapeMs: [] as number[], threadMs: [] as number[] };
  const theirs = { scrapeMs: [] as number[], threadMs: [] as number[] };
  const collectMs: number[] = [];
  const producerMs: number[] = [];
  const upstreamMs: number[] = [];
  const serializeMs: number[] = [];
  const metricsMs: number[] = [];
  let oursBytes = 0;
  let theirsBytes = 0;
  let oursSamples = 0;
  let upstreamBytes = 0;
  let theirsSamples = 0;
  try {
    for (let round = 0; round < warmUp + scrapes; round++) {
      if (allChanged) for (const handle of job.handles) handle.timedIncrementBytes(4096, 1);
      // Alternate which goes first, so that neither always runs on a warmer cache or after the other's garbage.
      const a = round % 2 === 0;
      const first = await timedScrape(scraper, a ? job.url : prom.url);
      const second = await timedScrape(scraper, a ? prom.url : job.url);
      const mine = a ? first : second;
      const other = a ? second : first;
      let start = performance.now();
      const { resourceMetrics } = await job.probe.collect();
      const collect = performance.now() - start;
      const produce = job.producerMs();
      start = performance.now();
      const text = upstream.serialize(resourceMetrics);
      const serialize = performance.now() - start;
      start = performance.now();
      serializePrometheus(resourceMetrics);
      const serializeOurs = performance.now() - start;
      start = performance.now();
      const promText = await prom.registry.metrics();
      const metrics = performance.now() - start;
      if (round < warmUp) continue;
      oursBytes = mine.bytes;
      theirsBytes = other.bytes;
      oursSamples = samplesOf(text);
      upstreamBytes = Buffer.byteLength(text);
      theirsSamples = samplesOf(promText);
      ours.scrapeMs.push(mine.ms);
      ours.threadMs.push(mine.threadMs);
      theirs.scrapeMs.push(other.ms);
      theirs.threadMs.push(other.threadMs);
      collectMs.push(collect);
      producerMs.push(produce);
      upstreamMs.push(serialize);
      serializeMs.push(serializeOurs);
      metricsMs.push(metrics);
    }
  } finally {
    await job.stats.shutdown();
    await prom.stop();
  }
  const med = (values: number[]): number => summarize(values).median;
  return {
    series,
    histograms,
    allChanged,
    backupstats: {
      bytes: oursBytes,
      samples: oursSamples,
      scrapeMs: med(ours.scrapeMs),
      threadMs: med(ours.threadMs),
    },
    collectMs: med(collectMs),
    producerMs: med(producerMs),
    serializeMs: med(serializeMs),
    upstreamSerializeMs: med(upstreamMs),
    upstreamBytes,
    promClient: {
      bytes: theirsBytes,
      samples: theirsSamples,
      scrapeMs: med(theirs.scrapeMs),
      threadMs: med(theirs.threadMs),
    },
    promClientMetricsMs: med(metricsMs),
    scrapes,
  };
}

/**
 * A job recording on `series` series with histograms as fast as it can, yielding to the event loop every 1,000
 * records as a job doing I/O does, through pairs of one-second windows: one with a scrape from another thread at its
 * start (as a scrape every second gives), one without, in alternating order. The two windows of a pair run a second
 * apart, so that the load of a shared machine weighs on both alike; the ratio is taken per pair.
 */
async function measureRecordRate(scraper: Scraper, config: BenchConfig): Promise<RecordRateRow> {
  const series = config.quick ? 20 : 2000;
  const windowMillis = config.quick ? 20 : 1000;
  const pairs = config.quick ? 1 : 15;
  const job = await startJob(series, true);
  const scraped: number[] = [];
  const unscraped: number[] = [];
  const kept: number[] = [];
  try {
    let k = 0;
    let next = 0;
    const recordFor = async (millis: number): Promise<number> => {
      const handles = job.handles;
      let records = 0;
      const end = performance.now() + millis;
      while (performance.now() < end) {
        for (let n = 0; n < 1000; n++) {
          (handles[next] as Stats).timedIncrementBytes(4096, DURATIONS[k] as number);
          next = next === handles.length - 1 ? 0 : next + 1;
          k = k === DURATIONS.length - 1 ? 0 : k + 1;
        }
        records += 1000;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      return records / (millis / 1000);
    };
    const windowOf = async (withScrape: boolean): Promise<number> => {
      const scrape = withScrape ? scraper.scrape(job.url) : undefined;
      const rate = await recordFor(windowMillis);
      await scrape;
      return rate;
    };
    // A warm-up of both kinds, then the pairs.
    await windowOf(false);
    await windowOf(true);
    for (let pair = 0; pair < pairs; pair++) {
      const scrapedFirst = pair % 2 === 1;
      const first = await windowOf(scrapedFirst);
      const second = await windowOf(!scrapedFirst);
      const withScrape = scrapedFirst ? first : second;
      const without = scrapedFirst ? second : first;
      scraped.push(withScrape);
      unscraped.push(without);
      kept.push((withScrape / without) * 100);
    }
  } finally {
    await job.stats.shutdown();
  }
  return {
    series,
    histograms: true,
    unscrapedPerSecond: summarize(unscraped).median,
    scrapedPerSecond: summarize(scraped).median,
    keptPercent: summarize(kept).median,
    keptMinPercent: summarize(kept).min,
    keptMaxPercent: summarize(kept).max,
    bestKeptPercent: (summarize(scraped).max / summarize(unscraped).max) * 100,
    windowMillis,
    pairs,
  };
}
