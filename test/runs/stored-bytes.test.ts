// The bytes a run stored: its family's Destination:Write bytes recorded while it was the only run of its family in
// progress (a metered stream, an S3 upload, whatever their component), or the bytes its caller gave, which win.
// Exported as the last success's stored bytes and shown in the report with the read bytes and their ratio.
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBackupStats, meterWritable, Operation } from 'backupstats';
import { reportData } from 'backupstats/report';
import { connectBackupStats } from 'backupstats/worker';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { numbers } from '../support/harness.js';
import { runKey } from '../support/series-key.js';

const NOT_NOW = { flushIntervalMillis: 2 ** 30 };
const RUN = { component: 'BackupEngine', implementation: 'Builtin', operation: Operation.Backup };
const FILE_WRITE = { component: 'BackupStorage', implementation: 'File', operation: Operation.DestinationWrite };
const S3_WRITE = { component: 'BackupStorage', implementation: 'S3', operation: Operation.DestinationWrite };

/** A writable that keeps nothing. */
function sink(): Writable {
  return new Writable({ write: (_chunk, _encoding, callback) => callback() });
}

describe('the stored bytes of a run', () => {
  it("are its family's Destination:Write bytes in its interval, of every component; records before and after are not its", async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const s3 = stats.backup.scope(S3_WRITE);
    s3.timedIncrementBytes(5000, 1); // before the run
    stats.restore.scope(FILE_WRITE).timedIncrementBytes(7000, 1); // another family
    const run = stats.backup.scope(RUN).startRun();
    await pipeline(
      (function* () {
        for (let i = 0; i < 10; i++) yield Buffer.alloc(100);
      })(),
      meterWritable(sink(), stats.backup.scope(FILE_WRITE)),
    );
    stats.flush(); // what a flush took and what is still pending both count
    s3.timedIncrementBytes(300, 1);
    stats.backup.scope({ ...S3_WRITE, operation: Operation.SourceRead }).timedIncrementBytes(4000, 1);
    run.succeed(4000);
    s3.timedIncrementBytes(9000, 1); // after the run
    const values = numbers(await harness.collect());
    expect(values.get(runKey('backup.last_success.bytes', RUN))).toBe(4000);
    expect(values.get(runKey('backup.last_success.stored_bytes', RUN))).toBe(1300);
    const [report] = reportData(stats).runs;
    expect(report).toMatchObject({ outcome: 'success', bytes: 4000, storedBytes: 1300, storedRatio: 0.325 });
    await stats.shutdown();
  });

  it('of overlapping runs are only what their callers give; given bytes always win', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const write = stats.backup.scope(FILE_WRITE);
    const first = stats.backup.scope(RUN).startRun();
    write.timedIncrementBytes(100, 1);
    const other = { ...RUN, implementation: 'Other' };
    const second = stats.backup.scope(other).startRun();
    write.timedIncrementBytes(200, 1);
    first.succeed(1000);
    write.timedIncrementBytes(400, 1);
    second.succeed(2000, { storedBytes: 250 });
    const alone = { ...RUN, implementation: 'Alone' };
    const given = stats.backup.scope(alone).startRun();
    write.timedIncrementBytes(800, 1);
    given.succeed(3000, { storedBytes: 10 });
    const values = numbers(await harness.collect());
    expect(values.get(runKey('backup.last_success.stored_bytes', RUN))).toBeUndefined();
    expect(values.get(runKey('backup.last_success.stored_bytes', other))).toBe(250);
    expect(values.get(runKey('backup.last_success.stored_bytes', alone))).toBe(10);
    expect(reportData(stats).runs.map((run) => [run.implementation, run.storedBytes, run.storedRatio])).toEqual([
      ['Builtin', null, null],
      ['Other', 250, 0.125],
      ['Alone', 10, 0.00333333],
    ]);
    await stats.shutdown();
  });

  it("count a worker thread's writes of the family, read at the run's end", async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const worker = connectBackupStats(stats.workerLink({ workers: 1 }));
    onTestFinished(() => worker.close());
    const write = worker.backup.scope(S3_WRITE);
    write.timedIncrementBytes(50, 1); // before the run
    const run = stats.backup.scope(RUN).startRun();
    write.timedIncrementBytes(700, 1);
    write.timedIncrementBytes(70, 1);
    worker.verify.scope(S3_WRITE).timedIncrementBytes(9, 1); // another family
    run.succeed(2000);
    const values = numbers(await harness.collect());
    expect(values.get(runKey('backup.last_success.stored_bytes', RUN))).toBe(770);
    await stats.shutdown();
  });

  it('are unknown without a metered write during the run, and in unthrottled stats', async ({ harness }) => {
    const throttled = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    throttled.backup.scope(RUN).startRun().succeed(10);
    const direct = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis: 0, metricPrefix: 'd.' });
    const run = direct.backup.scope(RUN).startRun();
    direct.backup.scope(FILE_WRITE).timedIncrementBytes(100, 1);
    run.succeed(10);
    const values = numbers(await harness.collect());
    expect(values.get(runKey('backup.last_success.bytes', RUN))).toBe(10);
    expect(values.get(runKey('backup.last_success.stored_bytes', RUN))).toBeUndefined();
    expect(values.get(runKey('d.backup.last_success.bytes', RUN))).toBe(10);
    expect(values.get(runKey('d.backup.last_success.stored_bytes', RUN))).toBeUndefined();
    await throttled.shutdown();
    await direct.shutdown();
  });

  it('of a partial run show in the report, not in the last success', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, ...NOT_NOW });
    const run = stats.backup.scope(RUN).startRun();
    stats.backup.scope(FILE_WRITE).timedIncrementBytes(60, 1);
    run.partial('source', 100);
    expect(reportData(stats).runs.map((r) => [r.outcome, r.reason, r.bytes, r.storedBytes, r.storedRatio])).toEqual([
      ['partial', 'source', 100, 60, 0.6],
    ]);
    const values = numbers(await harness.collect());
    expect(values.get(runKey('backup.last_success.stored_bytes', RUN))).toBeUndefined();
    await stats.shutdown();
  });
});
