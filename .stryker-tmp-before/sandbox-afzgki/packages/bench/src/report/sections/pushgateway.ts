// @ts-nocheck
import type { PushgatewayResult } from '../../pushgateway/pushgateway-push.js';
import { fixed, kib, table } from '../format.js';

/** Section 8: what one batch job pushes to the Pushgateway, and how long a push takes, by number of scopes. */
export function pushgatewaySection(push: PushgatewayResult): string[] {
  return [
    '',
    '### 8. Pushing to the Pushgateway (`backupstats/pushgateway`), per job',
    '',
    table(
      [
        'scopes',
        'histograms',
        'samples',
        'body',
        'push ms (median, min–max)',
        'collect ms (median)',
        'pushes',
        'pushed to',
      ],
      push.rows.map((r) => [
        String(r.scopes),
        r.histograms ? 'yes' : 'no (`BACKUPSTATS_HISTOGRAMS=false`)',
        String(r.samples),
        `${r.bodyBytes} B (${kib(r.bodyBytes)})`,
        `${fixed(r.pushMs.median, 2)} (${fixed(r.pushMs.min, 2)}–${fixed(r.pushMs.max, 2)})`,
        fixed(r.collectMs.median, 2),
        String(r.pushMs.samples),
        r.target,
      ]),
    ),
    '',
    'Each scope carries its three counters and, unless histograms are off, its latency histogram (explicit buckets, 28 ' +
      'samples a scope): the body is the text format of one push, as a local sink received it. A push is one `export()` ' +
      "of the exporter: serializing, the POST and the Pushgateway's answer. The Pushgateway checks each push against " +
      'every group it holds, so a row starts from an empty one (its group is deleted after it): a Pushgateway that holds ' +
      "a fleet's groups takes longer per push. `collect` is the reader's collection before it (the stats' flush and the " +
      "histograms' points).",
  ];
}
