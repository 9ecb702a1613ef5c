import type { ScrapeResult } from '../../scrape/scrape.js';
import { fixed, kib, table } from '../format.js';

/** Section 9: a Prometheus scrape of many series with histograms, and where its time goes. */
export function scrapeSection(scrape: ScrapeResult): string[] {
  return [
    '',
    '### 9. A Prometheus scrape of series with histograms (default explicit buckets)',
    '',
    table(
      [
        'series',
        'exposition',
        'scrape ms (HTTP)',
        'collection ms',
        'of it, the histogram producer',
        'serializer ms',
        'scrapes',
      ],
      scrape.rows.map((r) => [
        String(r.series),
        `${r.bytes} B (${kib(r.bytes)})`,
        fixed(r.scrapeMs, 1),
        fixed(r.collectMs, 1),
        fixed(r.producerMs, 2),
        fixed(r.serializeMs, 1),
        String(r.scrapes),
      ]),
    ),
    '',
    "Medians. The collection is the reader's (counters, runs and the producer's histograms, after the stats' flush); " +
      "the serializer is `@opentelemetry/exporter-prometheus`'s `PrometheusSerializer`, which escapes and sanitizes " +
      'every label of every line (each histogram is 25 lines with the default 22 boundaries): it is most of a scrape.',
  ];
}
