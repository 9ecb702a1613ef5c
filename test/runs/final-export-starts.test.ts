// The export after shutdown, a batch job's only one, comes right after the job's last runs ended (or were ended as
// interrupted by the shutdown itself). The SDK reads its clock in whole milliseconds: a series first recorded in the
// millisecond of that collection would export a point that starts where it ends.
import { AggregationTemporality, type DataPoint, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { createBackupStats } from 'backupstats';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createHarness } from '../support/harness.js';

const toNanos = ([seconds, nanos]: [number, number]): bigint => BigInt(seconds) * 1_000_000_000n + BigInt(nanos);

/** Every point of the export whose start is not before its end, as `name {attributes} start end`. */
function notBeforeEnd(exported: ResourceMetrics): string[] {
  const bad: string[] = [];
  for (const scope of exported.scopeMetrics)
    for (const metric of scope.metrics)
      for (const p of metric.dataPoints as DataPoint<unknown>[]) {
        const start = toNanos(p.startTime);
        const end = toNanos(p.endTime);
        if (start >= end) bad.push(`${metric.descriptor.name} ${JSON.stringify(p.attributes)} ${start} ${end}`);
      }
  return bad;
}

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
        expect(notBeforeEnd(exported), `round ${round}`).toEqual([]);
      }
    });
});
