// Runs that start and end in the middle of a job, each step in the millisecond of the collection that follows it.
// The SDK reads its wall clock in whole milliseconds, both for a series' start (its first add) and for a
// collection's time: a series whose first add and the next collection fall in one millisecond would export a point
// that starts where it ends, an empty interval. A step that starts a series (the runs' counters at a handle's first
// run, each outcome's duration and gauges at its first end, the progress gauges) must therefore not return before
// its millisecond has passed. The wall clock here moves one millisecond every READS_PER_MILLISECOND reads, as a real
// one moves while it is read in a loop, so that the millisecond each read falls in is the same on every run.
import { AggregationTemporality } from '@opentelemetry/sdk-metrics';
import { createBackupStats, Operation, type Run, RunFailure } from 'backupstats';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { createHarness } from '../support/harness.js';
import { pointsNotBeforeEnd } from '../support/point-times.js';

/** Far more reads than a step and a collection make (a few dozen), far fewer than a real clock makes in a millisecond. */
const READS_PER_MILLISECOND = 1_000;
const T0 = Date.UTC(2026, 11, 1, 23, 0, 0);

/**
 * Makes Date.now a clock that moves one millisecond every {@link READS_PER_MILLISECOND} reads, real again when the
 * test ends; `nextMillisecond()` moves it to the start of the next millisecond, as a step that begins right after
 * the clock ticked.
 */
function steppingWallClock(): { nextMillisecond(): void } {
  let reads = 0;
  const spy = vi.spyOn(Date, 'now').mockImplementation(() => T0 + Math.floor(reads++ / READS_PER_MILLISECOND));
  onTestFinished(() => {
    spy.mockRestore();
  });
  return {
    nextMillisecond() {
      reads = (Math.floor(reads / READS_PER_MILLISECOND) + 1) * READS_PER_MILLISECOND;
    },
  };
}

const RUN = { component: 'BackupEngine', implementation: 'Builtin', operation: Operation.Backup };

describe('runs whose steps fall in the millisecond of the next collection', () => {
  for (const temporality of [AggregationTemporality.CUMULATIVE, AggregationTemporality.DELTA])
    it(`every point of every collection starts before it ends (${AggregationTemporality[temporality]})`, async () => {
      const clock = steppingWallClock();
      const harness = createHarness([temporality]);
      onTestFinished(() => harness.shutdown());
      const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis: 2 ** 30 });
      onTestFinished(() => stats.shutdown());
      const bad: string[] = [];
      /** Takes one step at the start of a millisecond, then collects at once. */
      const step = async (name: string, act: () => void) => {
        clock.nextMillisecond();
        act();
        bad.push(...pointsNotBeforeEnd(await harness.collect()).map((point) => `${name}: ${point}`));
      };
      await step('nothing yet', () => {});
      const handle = stats.backup.scope(RUN);
      let run: Run | undefined;
      await step('first run started', () => {
        run = handle.startRun();
      });
      await step('it succeeded', () => run?.succeed(100));
      await step('a second run started and failed', () => handle.startRun().fail(RunFailure.Destination));
      await step('another family: started and succeeded', () => stats.restore.startRun().succeed(5));
      let followed: Run | undefined;
      await step('a run given its size and a phase', () => {
        followed = handle.startRun({ expectedBytes: 1000 });
        followed.phase('copy');
      });
      await step('its next phase', () => followed?.phase('verify'));
      await step('it ended partial', () => followed?.partial(RunFailure.Source, 400));
      await step('a warning', () => {
        const warned = stats.verify.startRun();
        warned.warn(RunFailure.Source);
        warned.succeed();
      });
      await step('the same outcomes again', () => {
        handle.startRun().succeed(100);
        handle.startRun().fail(RunFailure.Destination);
      });
      expect(bad).toEqual([]);
    });
});
