import { request } from 'node:http';
import { createServer } from 'node:net';
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { Component, createBackupStats, createHistogramProducer, Implementation, Operation } from 'backupstats';
import type { BenchConfig } from '../config.js';

/** A scrape of one size: what it weighs and where its time goes. */
export interface ScrapeRow {
  readonly series: number;
  /** The exposition's size, bytes. */
  readonly bytes: number;
  /** Medians over the scrapes, ms: the whole HTTP scrape, the reader's collection (counters and histograms), the
   * histogram producer's part of it, and the serializer's. */
  readonly scrapeMs: number;
  readonly collectMs: number;
  readonly producerMs: number;
  readonly serializeMs: number;
  readonly scrapes: number;
}

/** Results of the scrape benchmark. */
export interface ScrapeResult {
  readonly rows: readonly ScrapeRow[];
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** A port free on 127.0.0.1 now (the exporter takes a port of 0 for its default, 9464). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** GETs the exposition from the exporter's endpoint; resolves with its size in bytes. */
function scrape(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/metrics' }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on('end', () => resolve(bytes));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Series with their latency histograms (the default explicit buckets) on a real PrometheusExporter, scraped over
 * HTTP on 127.0.0.1 as Prometheus does; and the scrape's parts timed apart on the same data: the reader's
 * collection, the histogram producer's share of it, and the exporter's serializer.
 */
export async function runScrape(config: BenchConfig): Promise<ScrapeResult> {
  const rows: ScrapeRow[] = [];
  const scrapes = config.quick ? 3 : 20;
  for (const series of [100, 2000]) {
    const producer = createHistogramProducer();
    const port = await freePort();
    const exporter = new PrometheusExporter({
      port,
      host: '127.0.0.1',
      metricProducers: [producer],
      preventServerStart: true,
    });
    await exporter.startServer();
    const provider = new MeterProvider({ readers: [exporter] });
    const stats = createBackupStats({ meterProvider: provider, histogramProducers: [producer], maxScopes: series + 2 });
    for (let i = 0; i < series; i++) {
      const handle = stats.backup.scope({
        component: Component.BackupEngine,
        implementation: Implementation.Builtin,
        operation: i === 0 ? Operation.SourceRead : `op-${i}`,
      });
      // Durations spread over 10 µs … 10 s, so that every series fills many buckets.
      for (let k = 0; k < 200; k++) handle.timedIncrementBytes(4096, 0.01 * 10 ** ((k * 7) / 200));
    }
    const serializer = new PrometheusSerializer();
    const scrapeMs: number[] = [];
    const collectMs: number[] = [];
    const producerMs: number[] = [];
    const serializeMs: number[] = [];
    let bytes = 0;
    for (let round = 0; round < scrapes + 2; round++) {
      let start = performance.now();
      bytes = await scrape(port);
      const whole = performance.now() - start;
      start = performance.now();
      const { resourceMetrics } = await exporter.collect();
      const collect = performance.now() - start;
      start = performance.now();
      await producer.collect();
      const produce = performance.now() - start;
      start = performance.now();
      serializer.serialize(resourceMetrics);
      const serialize = performance.now() - start;
      // The first two warm the code up.
      if (round < 2) continue;
      scrapeMs.push(whole);
      collectMs.push(collect);
      producerMs.push(produce);
      serializeMs.push(serialize);
    }
    rows.push({
      series,
      bytes,
      scrapeMs: median(scrapeMs),
      collectMs: median(collectMs),
      producerMs: median(producerMs),
      serializeMs: median(serializeMs),
      scrapes,
    });
    await stats.shutdown();
    await provider.shutdown();
    await exporter.stopServer();
  }
  return { rows };
}
