// @ts-nocheck
// A property test: any interleaving of worker records (two threads, several scopes, any weights), main-thread
// flushes and collections exports every record exactly once, and every collection it makes on the way sees
// consistent histograms (count equal to its buckets, sum equal to the count times the scope's one duration) and
// counters that never run ahead of what was recorded.
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { bucketsAddUp, statsWithHistograms } from '../support/histogram-stats.js';
import { type RecordingWorker, startRecordingWorker } from '../support/workers.js';

const SCOPES = 3;
/** Each scope has one duration, so that a consistent histogram's sum is its count times it. */
const MS = [0, 0.02, 250];

type Action =
  | { kind: 'record'; worker: 0 | 1; scope: number; count: number; bytes: number; weight: number }
  | { kind: 'settle'; worker: 0 | 1 }
  | { kind: 'flush' }
  | { kind: 'collect' };

const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('record' as const),
      worker: fc.constantFrom(0 as const, 1 as const),
      scope: fc.integer({ min: 0, max: SCOPES - 1 }),
      count: fc.integer({ min: 1, max: 3000 }),
      bytes: fc.integer({ min: 0, max: 1 << 20 }),
      weight: fc.integer({ min: 0, max: 16 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('settle' as const), worker: fc.constantFrom(0 as const, 1 as const) }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'flush' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'collect' as const }) },
);

describe('any interleaving of worker records and main-thread flushes', () => {
  it('exports every record once, with consistent histograms at every collection', async () => {
    const { stats, collect } = statsWithHistograms({ flushIntervalMillis: 2 });
    const link = stats.workerLink({ workers: 2 });
    const workers = [await startRecordingWorker(link), await startRecordingWorker(link)] as const;
    // Totals since the start (the stats and workers live across runs): recorded, and recorded and acknowledged.
    const expected = Array.from({ length: SCOPES }, () => ({ count: 0, bytes: 0, weighted: 0 }));
    const check = async (exact: boolean): Promise<void> => {
      const exported = await collect();
      for (let scope = 0; scope < SCOPES; scope++) {
        const key = `{-,-,s${scope}}`;
        const count = exported.values.get(`backup.operations${key}`) ?? 0;
        const bytes = exported.values.get(`backup.bytes${key}`) ?? 0;
        const point = exported.histogram({ operation: `s${scope}` });
        if (point !== undefined) {
          expect(bucketsAddUp(point)).toBe(true);
          expect(point.sum).toBeCloseTo((point.count * (MS[scope] as number)) / 1000, 6);
        }
        const want = expected[scope] as (typeof expected)[number];
        if (exact) {
          expect(count).toBe(want.count);
          expect(bytes).toBe(want.bytes);
          expect(point?.count ?? 0).toBe(want.weighted);
        } else {
          expect(count).toBeLessThanOrEqual(want.count);
          expect(bytes).toBeLessThanOrEqual(want.bytes);
          expect(point?.count ?? 0).toBeLessThanOrEqual(want.weighted);
        }
      }
    };
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 25 }), async (actions) => {
        const inFlight: Promise<void>[][] = [[], []];
        const settle = async (worker: 0 | 1): Promise<void> => {
          await Promise.all(inFlight[worker] as Promise<void>[]);
          (inFlight[worker] as Promise<void>[]).length = 0;
        };
        for (const step of actions) {
          if (step.kind === 'record') {
            const want = expected[step.scope] as (typeof expected)[number];
            want.count += step.count;
            want.bytes += step.count * step.bytes;
            want.weighted += step.count * step.weight;
            const worker = workers[step.worker] as RecordingWorker;
            inFlight[step.worker]?.push(
              worker.run({
                kind: 'loop',
                count: step.count,
                bytes: step.bytes,
                ms: MS[step.scope] as number,
                weight: step.weight,
                labels: { operation: `s${step.scope}` },
              }),
            );
          } else if (step.kind === 'settle') await settle(step.worker);
          else if (step.kind === 'flush') stats.flush();
          else await check(false);
        }
        await settle(0);
        await settle(1);
        await check(true);
      }),
      { numRuns: 40 },
    );
  });
});
