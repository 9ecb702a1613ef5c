// @ts-nocheck
import type { RecordCostResult } from '../../record/record-cost.js';
import { fixed, ns, table } from '../format.js';

/** Section 1: what one record costs, per case, next to direct OpenTelemetry. */
export function recordSection(record: RecordCostResult): string[] {
  return [
    '',
    '### 1. Cost of one record (`timedIncrementBytes` or its equivalent)',
    '',
    table(
      ['case', 'ns/op (median)', '± (rme)', 'direct OTel ÷ this', 'records per sample'],
      record.rows.map((r) => [
        r.case,
        ns(r.nsPerOp),
        `${fixed(r.rmePercent, 1)} %`,
        `${r.cheaperThanOtel >= 10 ? fixed(r.cheaperThanOtel, 0) : fixed(r.cheaperThanOtel, 2)}×`,
        String(record.recordsPerIteration[r.case] ?? ''),
      ]),
    ),
  ];
}
