// @ts-nocheck
import type { WorkersResult } from '../../workers/workers.js';
import { fixed, table } from '../format.js';

/** Worker threads: a record in a worker next to the main thread's, and the main thread's flush with 8 workers. */
export function workersSection(workers: WorkersResult): string[] {
  const flush = workers.flush;
  return [
    '',
    '### 1b. Worker threads',
    '',
    'One `timedIncrementBytes` on a held handle, the same loop timed on the main thread and in a worker connected ' +
      'through `workerLink()` (median ns per record of 3 alternated runs).',
    '',
    table(
      ['case', 'main thread ns/op', 'worker ns/op', 'worker ÷ main'],
      workers.records.map((r) => [
        r.case,
        fixed(r.mainNs, 2),
        fixed(r.workerNs, 2),
        `${fixed(r.workerNs / r.mainNs, 2)} ×`,
      ]),
    ),
    '',
    `The main thread's \`flush()\` when ${flush.workers} workers have each recorded once on each of their ` +
      `${flush.scopesPerWorker} scopes (histograms on): the shared memory read and folded, then the counters' SDK calls; ` +
      'next to the flush of as many main-thread handles, each recorded on once.',
    '',
    table(
      ['flush', 'µs (median)', 'min … max µs', 'repetitions'],
      [
        [
          `${flush.workers} workers × ${flush.scopesPerWorker} scopes`,
          fixed(flush.flushMs.median * 1000, 0),
          `${fixed(flush.flushMs.min * 1000, 0)} … ${fixed(flush.flushMs.max * 1000, 0)}`,
          String(flush.flushMs.samples),
        ],
        [
          `${flush.workers * flush.scopesPerWorker} main-thread handles`,
          fixed(flush.mainOnlyMs.median * 1000, 0),
          `${fixed(flush.mainOnlyMs.min * 1000, 0)} … ${fixed(flush.mainOnlyMs.max * 1000, 0)}`,
          String(flush.mainOnlyMs.samples),
        ],
      ],
    ),
  ];
}
