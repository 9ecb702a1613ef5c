import type { ScrapeResult } from '../../scrape/scrape.js';
import { fixed, kib, table } from '../format.js';

/** Section 9: a Prometheus scrape by number of series, where its time goes, prom-client beside it. */
export function scrapeSection(scrape: ScrapeResult): string[] {
  const rate = scrape.recordRate;
  return [
    '',
    '### 9. A Prometheus scrape (default explicit buckets), next to prom-client serving the same',
    '',
    table(
      [
        'series',
        'samples',
        'exposition (per series)',
        'job thread ms per scrape',
        'HTTP scrape ms',
        'collection ms',
        'of it, histogram producer ms',
        'serializer ms',
        'exporter-prometheus serializer ms (bytes)',
        'prom-client: job thread ms',
        'prom-client: HTTP ms',
        'prom-client: metrics() ms',
        'prom-client: exposition',
        'scrapes',
      ],
      scrape.rows.map((r) => [
        `${r.series}${r.histograms ? ' with histograms' : ''}${r.allChanged ? ', all recorded on between scrapes' : ''}`,
        String(r.backupstats.samples),
        `${kib(r.backupstats.bytes)} (${Math.round(r.backupstats.bytes / r.series)} B)`,
        fixed(r.backupstats.threadMs, 1),
        fixed(r.backupstats.scrapeMs, 1),
        fixed(r.collectMs, 1),
        fixed(r.producerMs, 2),
        fixed(r.serializeMs, 1),
        `${fixed(r.upstreamSerializeMs, 1)} (${Math.round(r.upstreamBytes / r.series)} B per series)`,
        fixed(r.promClient.threadMs, 1),
        fixed(r.promClient.scrapeMs, 1),
        fixed(r.promClientMetricsMs, 1),
        `${r.promClient.samples} samples, ${kib(r.promClient.bytes)}`,
        String(r.scrapes),
      ]),
    ),
    '',
    'Medians. A scraper thread GETs `/metrics` of backupstats/setup (configured from the environment) and of a ' +
      'prom-client registry holding the same series and buckets, in alternating order; "job thread" is the time the ' +
      "main thread's event loop was busy serving the scrape. The collection is a second reader's on the same provider " +
      "(the stats' flush, the SDK's counters, the histogram producer); the endpoint's serializer and " +
      "exporter-prometheus' are timed on that collection.",
    '',
    table(
      [
        'series',
        'records/s unscraped',
        'records/s with a scrape a second',
        'kept (lowest … highest pair)',
        'best window over best window',
        'pairs',
      ],
      [
        [
          `${rate.series}${rate.histograms ? ' with histograms' : ''}`,
          Math.round(rate.unscrapedPerSecond).toLocaleString('en-US'),
          Math.round(rate.scrapedPerSecond).toLocaleString('en-US'),
          `${fixed(rate.keptPercent, 1)} % (${fixed(rate.keptMinPercent, 1)} … ${fixed(rate.keptMaxPercent, 1)} %)`,
          `${fixed(rate.bestKeptPercent, 1)} %`,
          `${rate.pairs} × 2 windows of ${rate.windowMillis} ms`,
        ],
      ],
    ),
    '',
    'A job recording on every series, yielding to the event loop every 1,000 records: pairs of windows, one with a ' +
      'scrape at its start and one without, in alternating order; the median of the pairs. ' +
      `Load average (1 min) ${fixed(scrape.loadAverage[0], 2)} before, ${fixed(scrape.loadAverage[1], 2)} after.`,
  ];
}
