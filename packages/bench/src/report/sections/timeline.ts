import type { TimelineResult } from '../../timeline/timeline-cost.js';
import { fixed, table } from '../format.js';

/** Section 9: the timeline's cost per flush, and the report's size and writing time. */
export function timelineSection(result: TimelineResult): string[] {
  const r = result.report;
  return [
    '',
    '### 9. Timeline and report',
    '',
    "`flush()` with every series recorded on since the last flush, and the timeline's part of it (its hooks around " +
      'the drain, run alone on the same handles, interleaved with the flushes).',
    '',
    table(
      [
        'series',
        'flush() µs (median)',
        'timeline µs (median)',
        'timeline ns per series',
        'share of flush',
        'repetitions',
      ],
      result.flush.map((row) => [
        String(row.series),
        fixed(row.flushMs.median * 1000, 1),
        fixed(row.timelineMs.median * 1000, 1),
        fixed((row.timelineMs.median * 1e6) / row.series, 0),
        `${fixed((row.timelineMs.median / row.flushMs.median) * 100, 1)} %`,
        String(row.repetitions),
      ]),
    ),
    '',
    `The report page of ${r.series.toLocaleString('en-US')} series with latency histograms, 200 flushes and 10 runs:`,
    '',
    table(
      ['series', 'page KiB', 'reportData() ms', 'renderReport() ms', 'writeReport() ms', 'repetitions'],
      [
        [
          String(r.series),
          fixed(r.bytes / 1024, 0),
          fixed(r.dataMs.median, 1),
          fixed(r.renderMs.median, 1),
          fixed(r.writeMs.median, 1),
          String(r.repetitions),
        ],
      ],
    ),
  ];
}
