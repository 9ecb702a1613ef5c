import type { RecordCostResult } from '../../record/record-cost.js';
import { fixed, ns, table } from '../format.js';

const times = (ratio: number): string => `${ratio >= 10 ? fixed(ratio, 0) : fixed(ratio, 2)}×`;

/** Section 1: what one record costs, per case, next to the bare accumulator, direct OpenTelemetry and other histograms. */
export function recordSection(record: RecordCostResult): string[] {
  const pinned = record.pinnedCpu === undefined ? 'unpinned' : `pinned to CPU ${record.pinnedCpu}`;
  return [
    '',
    '### 1. Cost of one record (`timedIncrementBytes` or its equivalent)',
    '',
    `${record.rounds} rounds in one process (${pinned}), each timing every case in turn on the same precomputed varied inputs; a case's cost is the median of its rounds' medians. The other histograms record a duration alone.`,
    '',
    table(
      ['case', 'ns/op (median)', 'rounds (min … max)', '± (rme)', '× bare', 'direct OTel ÷ this', 'records per sample'],
      record.rows.map((r) => [
        r.case,
        ns(r.nsPerOp),
        `${ns(r.minNs)} … ${ns(r.maxNs)}`,
        `${fixed(r.rmePercent, 1)} %`,
        times(r.overFloor),
        times(r.cheaperThanOtel),
        String(record.recordsPerIteration[r.case] ?? ''),
      ]),
    ),
  ];
}
