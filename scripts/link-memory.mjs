#!/usr/bin/env node
// What a worker link's places cost the main thread when no worker takes them (docs/workers.md, Memory): for each
// `workers` given, `--links` links (default 10) of that many places of `--max-scopes` scopes (default 256), read by
// twenty flushes, on stats with histograms; resident memory (RSS) and the ArrayBuffers' size before and after, or the
// error workerLink() threw. `--json` prints one JSON object per line instead (test/workers/link-memory.test.ts).
// Run after the build: node --expose-gc scripts/link-memory.mjs [--links N] [--max-scopes M] [--json] [workers...]
import { parseArgs } from 'node:util';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { createBackupStats, createHistogramProducer } from 'backupstats';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    links: { type: 'string', default: '10' },
    'max-scopes': { type: 'string', default: '256' },
    json: { type: 'boolean', default: false },
  },
});
const links = Number(values.links);
const maxScopes = Number(values['max-scopes']);
/** A growth in KiB, with its sign. */
const kib = (bytes) => `${bytes < 0 ? '−' : '+'}${Math.abs(Math.round(bytes / 1024))} KiB`;

for (const workers of positionals.length > 0 ? positionals.map(Number) : [1, 128]) {
  const producer = createHistogramProducer();
  const stats = createBackupStats({ meterProvider: new MeterProvider(), histogramProducers: [producer] });
  globalThis.gc?.();
  const before = process.memoryUsage();
  const made = [];
  try {
    for (let i = 0; i < links; i++) made.push(stats.workerLink({ workers, maxScopes }));
  } catch (error) {
    const refused = { workers, error: { name: error.name, code: error.code, message: error.message } };
    console.log(values.json ? JSON.stringify(refused) : `${links} links of ${workers} place(s): ${error.message}`);
    await stats.shutdown();
    continue;
  }
  for (let i = 0; i < 20; i++) {
    stats.flush();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  globalThis.gc?.();
  const after = process.memoryUsage();
  const rss = after.rss - before.rss;
  const arrayBuffers = after.arrayBuffers - before.arrayBuffers;
  const placeBytes = made[0].memory.byteLength / workers;
  console.log(
    values.json
      ? JSON.stringify({ workers, links: made.length, placeBytes, rss, arrayBuffers })
      : `${links} links of ${workers} place(s) (${links * workers} places of ${placeBytes} bytes): ` +
          `RSS ${kib(rss)}, ArrayBuffers ${kib(arrayBuffers)}`,
  );
  await stats.shutdown();
}
