// The export after shutdown, a batch job's only one, comes right after the job's last runs ended (or were ended as
// interrupted by the shutdown itself). The SDK reads its clock in whole milliseconds: a series first recorded in the
// millisecond of that collection would export a point that starts where it ends.
import { AggregationTemporality } from '@opentelemetry/sdk-metrics';
import { createBackupStats } from 'backupstats';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createHarness } from '../support/harness.js';
import { pointsNotBeforeEnd } from '../support/point-times.js';

describe('the export after shutdown', () => {
  for (const temporality of [AggregationTemporality.CUMULATIVE, AggregationTemporality.DELTA])
    it(`every point starts before it ends, the runs that ended right before included (${AggregationTemporality[temporality]})`, async () => {
      // Repeated: each time, the runs end and the shutdown collects within a millisecond or two.
      for (let round = 0; round < 20; round++) {
        const harness = createHarness([temporality]);
        onTestFinished(() => harness.shutdown());
        const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis: 2 ** 30 });
        const handle = stats.backup.scope({ operation: 'Backup' });
        handle.startRun().succeed(100);
        handle.startRun().fail();
        handle.startRun();
        stats.restore.timedIncrementBytes(1, 1);
        await stats.shutdown();
        const exported = await harness.collect();
        expect(pointsNotBeforeEnd(exported), `round ${round}`).toEqual([]);
      }
    });
});
