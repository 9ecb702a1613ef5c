// @ts-nocheck
import type { FlushResult } from '../../flush/flush-cost.js';
import { fixed, table } from '../format.js';

/** Section 3: `flush()` next to the SDK calls it makes, per number of dirty handles. */
export function flushSection(flush: FlushResult): string[] {
  return [
    '',
    '### 3. Flush cost',
    '',
    table(
      [
        'dirty handles',
        'flush() µs (median)',
        'same Counter.add calls µs (median)',
        'flush ÷ SDK calls',
        'repetitions',
      ],
      flush.rows.map((r) => [
        String(r.dirtyHandles),
        fixed(r.flushMs.median * 1000, 1),
        fixed(r.sdkCallsMs.median * 1000, 1),
        `${fixed(r.ratio, 2)} ×`,
        String(r.repetitions),
      ]),
    ),
    '',
    'Handing the latency histograms to a reader: one `collect()` of the histogram producer with 1,000 series (every ' +
      "series' point built), next to `flush()` of the counters of the same 1,000 series.",
    '',
    table(
      ['series', 'aggregation', 'collect() µs (median)', 'flush() µs (median)', 'repetitions'],
      flush.histograms.map((r) => [
        String(r.series),
        r.aggregation,
        fixed(r.collectMs.median * 1000, 0),
        fixed(r.flushMs.median * 1000, 0),
        String(r.repetitions),
      ]),
    ),
  ];
}
