// Any interleaving of scoping, recording, flushes, collections and timer ticks across many scopes exports
// exactly what was recorded: counts and bytes exact, durations within floating-point tolerance.
import { AggregationTemporality } from '@opentelemetry/sdk-metrics';
import { createBackupStats, type ScopeLabels, type Stats } from 'backupstats';
import fc from 'fast-check';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { createHarness, valuesByKey } from '../support/harness.js';

const FLUSH_INTERVAL = 1000;
const LABEL_VALUES = ['A', 'B', undefined] as const;

type Action =
  | { kind: 'scope'; from: number; labels: ScopeLabels }
  | { kind: 'record'; handle: number; family: 0 | 1; bytes: number | undefined; durationMillis: number }
  | { kind: 'flush' }
  | { kind: 'collect'; reader: 0 | 1 }
  | { kind: 'tick'; ms: number };

const labelValue = fc.constantFrom(...LABEL_VALUES);
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('scope' as const),
      from: fc.nat(),
      labels: fc.record({ component: labelValue, implementation: labelValue, operation: labelValue }),
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('record' as const),
      handle: fc.nat(),
      family: fc.constantFrom(0 as const, 1 as const),
      bytes: fc.option(fc.integer({ min: 0, max: 1 << 30 }), { nil: undefined }),
      durationMillis: fc.double({ min: 0, max: 10_000, noNaN: true }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'flush' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('collect' as const), reader: fc.constantFrom(0 as const, 1 as const) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 1, max: 2 * FLUSH_INTERVAL }) }),
  },
);

interface Totals {
  count: number;
  bytes: number;
  seconds: number;
}

function keyOf(family: string, labels: { component: string; implementation: string; operation: string }): string {
  return `${family}{${labels.component},${labels.implementation},${labels.operation}}`;
}

describe('exported totals equal recorded totals for any interleaving', () => {
  // fast-check's generated runs, each with a MeterProvider of its own: seconds, not milliseconds.
  it('holds across thousands of generated runs', { timeout: 60_000 }, async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(action, { maxLength: 80 }),
        fc.constantFrom(FLUSH_INTERVAL, 0),
        async (actions, flushIntervalMillis) => {
          const harness = createHarness([AggregationTemporality.CUMULATIVE, AggregationTemporality.DELTA]);
          const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis });
          const families = [stats.backup, stats.restore] as const;
          const familyNames = ['backup', 'restore'] as const;
          // Handles are tracked per family together with the labels they were asked for, resolved the
          // way Vitess resolves them (first value wins, unset reads '-'), computed independently here.
          const handles: Array<
            Array<{ stats: Stats; labels: { component: string; implementation: string; operation: string } }>
          > = families.map((root) => [
            { stats: root, labels: { component: '-', implementation: '-', operation: '-' } },
          ]);
          const expected = new Map<string, Totals>();
          const deltaSums = new Map<string, number>();

          const check = async (reader: 0 | 1): Promise<void> => {
            const values = valuesByKey(await harness.collect(reader));
            if (reader === 1) {
              for (const [key, value] of values)
                if (!key.startsWith('backupstats')) deltaSums.set(key, (deltaSums.get(key) ?? 0) + value);
            }
            const seen = reader === 0 ? values : deltaSums;
            for (const [key, totals] of expected) {
              const [family, labels] = [key.slice(0, key.indexOf('{')), key.slice(key.indexOf('{'))];
              expect(seen.get(`${family}.operations${labels}`)).toBe(totals.count);
              expect(seen.get(`${family}.bytes${labels}`) ?? 0).toBe(totals.bytes);
              expect(seen.get(`${family}.time${labels}`)).toBeCloseTo(totals.seconds, 6);
            }
          };

          for (const step of actions) {
            if (step.kind === 'scope') {
              for (const list of handles) {
                const parent = list[step.from % list.length];
                if (parent === undefined) continue;
                const pick = (current: string, given: string | undefined) =>
                  current !== '-' || given === undefined ? current : given;
                list.push({
                  stats: parent.stats.scope(step.labels),
                  labels: {
                    component: pick(parent.labels.component, step.labels.component),
                    implementation: pick(parent.labels.implementation, step.labels.implementation),
                    operation: pick(parent.labels.operation, step.labels.operation),
                  },
                });
              }
            } else if (step.kind === 'record') {
              const list = handles[step.family] ?? [];
              const target = list[step.handle % list.length];
              if (target === undefined) continue;
              if (step.bytes === undefined) target.stats.timedIncrement(step.durationMillis);
              else target.stats.timedIncrementBytes(step.bytes, step.durationMillis);
              const key = keyOf(familyNames[step.family], target.labels);
              const totals = expected.get(key) ?? { count: 0, bytes: 0, seconds: 0 };
              totals.count += 1;
              totals.bytes += step.bytes ?? 0;
              totals.seconds += step.durationMillis / 1000;
              expected.set(key, totals);
            } else if (step.kind === 'flush') {
              stats.flush();
            } else if (step.kind === 'collect') {
              await check(step.reader);
            } else {
              vi.advanceTimersByTime(step.ms);
            }
          }
          await check(0);
          await check(1);
          await stats.shutdown();
          await harness.shutdown();
        },
      ),
      { numRuns: 2000 },
    );
  });
});
