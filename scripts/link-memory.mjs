#!/usr/bin/env node
// What a worker link's places cost the main thread when no worker takes them (docs/workers.md, Memory): ten links of
// `workers` places each, read by twenty flushes, on stats with histograms; resident memory (RSS) and the
// ArrayBuffers' size before and after. Run after the build: node --expose-gc scripts/link-memory.mjs [workers...]
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { createBackupStats, createHistogramProducer } from 'backupstats';

const LINKS = 10;
for (const workers of process.argv.length > 2 ? process.argv.slice(2).map(Number) : [1, 128]) {
  const producer = createHistogramProducer();
  const stats = createBackupStats({ meterProvider: new MeterProvider(), histogramProducers: [producer] });
  globalThis.gc?.();
  const before = process.memoryUsage();
  const links = Array.from({ length: LINKS }, () => stats.workerLink({ workers }));
  for (let i = 0; i < 20; i++) {
    stats.flush();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  globalThis.gc?.();
  const after = process.memoryUsage();
  const places = links.reduce((sum, link) => sum + link.places, 0);
  console.log(
    `${LINKS} links of ${workers} place(s) (${places} places of ${links[0].memory.byteLength / workers} bytes): ` +
      `RSS +${Math.round((after.rss - before.rss) / 1024)} KiB, ArrayBuffers +${Math.round((after.arrayBuffers - before.arrayBuffers) / 1024)} KiB`,
  );
  await stats.shutdown();
}
