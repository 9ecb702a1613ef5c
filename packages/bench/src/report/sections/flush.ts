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
  ];
}
