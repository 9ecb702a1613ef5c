// Scrapes a job of N series (with their histograms unless `--no-histograms`) many times from another thread, and
// does nothing else but, with `--changing`, one record on every series before each scrape (no point reused), so
// that a CPU profile of the main thread shows where a scrape's time goes:
//   node --cpu-prof --cpu-prof-dir=/tmp/scrape-prof --import tsx src/scrape/profile-scrape.ts 2000 30
//   node src/scrape/top-frames.mjs /tmp/scrape-prof/<the main thread's file>.cpuprofile
import { Component, Implementation } from 'backupstats';
import { startBackupStats } from 'backupstats/setup';
import { freePort, startScraper } from './scraper.js';

const series = Number(process.argv[2] ?? 2000);
const scrapes = Number(process.argv[3] ?? 30);
const histograms = !process.argv.includes('--no-histograms');
const changing = process.argv.includes('--changing');
const port = await freePort();
const stats = await startBackupStats({
  env: {
    OTEL_METRICS_EXPORTER: 'prometheus',
    OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
    OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
  },
  histograms,
  maxScopes: series + 2,
  quiet: true,
});
const handles = [];
for (let i = 0; i < series; i++) {
  const handle = stats.backup.scope({
    component: Component.BackupEngine,
    implementation: Implementation.Builtin,
    operation: `op-${i}`,
  });
  for (let k = 0; k < 200; k++) handle.timedIncrementBytes(4096, 0.01 * 10 ** ((k * 7) / 200));
  handles.push(handle);
}
const scraper = await startScraper();
const start = performance.now();
for (let n = 0; n < scrapes; n++) {
  if (changing) for (const handle of handles) handle.timedIncrementBytes(4096, 1);
  await scraper.scrape(`http://127.0.0.1:${port}/metrics`);
}
process.stderr.write(
  `${scrapes} scrapes of ${series} series: ${((performance.now() - start) / scrapes).toFixed(1)} ms each\n`,
);
await scraper.stop();
await stats.shutdown();
