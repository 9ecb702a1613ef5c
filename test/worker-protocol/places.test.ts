// Which connection writes into which place of a link, in process: connectBackupStats called on the main thread
// takes a place as a worker thread does, and the main thread's stats read every place at each collection. A free
// place is taken first, then one given back by close(), and a place whose owner is alive is never taken, however
// often it is probed while its owner cannot answer. Places of other threads: threads.test.ts.
import { createBackupStats, type WorkerLink } from 'backupstats';
import { connectBackupStats, type WorkerBackupStats } from 'backupstats/worker';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { valuesByKey } from '../support/harness.js';

const refused = (places: number): string =>
  `backupstats: connectBackupStats link is a link whose ${places} place(s) are all taken by live workers; accepted: a link with a free place: stats.workerLink({ workers: N }) for N workers recording at once, or a link per worker`;

/** The worker side of `link`, on this thread, let go when the test ends. */
function connect(link: WorkerLink): WorkerBackupStats {
  const worker = connectBackupStats(link);
  onTestFinished(() => worker.close());
  return worker;
}

/** Lets this thread's event loop run: the owners' beacons answer the probes they were woken by. */
const answerProbes = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5));

// A refused connection looks for a place for 1 s first.
describe('the places of a link', { timeout: 15_000 }, () => {
  it('one per worker: past them a connection is refused, naming the number of places and what would do', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    onTestFinished(() => stats.shutdown());
    const link = stats.workerLink({ workers: 2 });
    const [a, b] = [connect(link), connect(link)];
    a.backup.timedIncrement(1);
    b.backup.timedIncrement(1);
    expect(() => connectBackupStats(link)).toThrow(new TypeError(refused(2)));
    expect(() => connectBackupStats(link)).toThrow(expect.objectContaining({ code: 'BACKUPSTATS_LINK_FULL' }));
    // The owners were probed while this thread was busy looking; once they answered, they are alive still.
    await answerProbes();
    expect(() => connectBackupStats(link)).toThrow(refused(2));
    await answerProbes();
    connect(stats.workerLink({ workers: 2 })).backup.timedIncrement(1);
    a.backup.timedIncrement(1);
    b.restore.timedIncrement(1);
    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.operations{-,-,-}')).toBe(4);
    expect(values.get('restore.operations{-,-,-}')).toBe(1);
  });

  it('a place given back by an owner probed while busy is taken at once, however many probes it did not answer', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    onTestFinished(() => stats.shutdown());
    const link = stats.workerLink({ workers: 1 });
    const busy = connectBackupStats(link);
    busy.backup.timedIncrement(1);
    expect(() => connectBackupStats(link)).toThrow(refused(1));
    busy.close();
    connect(link).backup.timedIncrement(1);
    expect(valuesByKey(await harness.collect()).get('backup.operations{-,-,-}')).toBe(2);
  });

  it('close() gives the place back: the next worker takes it with its series and goes on with their numbers', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    onTestFinished(() => stats.shutdown());
    const link = stats.workerLink({ workers: 1 });
    const first = connect(link);
    first.backup.scope({ operation: 'Read' }).timedIncrementBytes(10, 1);
    first.restore.timedIncrement(-1);
    first.close();
    await answerProbes();
    const next = connect(link);
    next.backup.scope({ operation: 'Read' }).timedIncrementBytes(5, 1);
    next.restore.timedIncrement(Number.NaN);
    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.operations{-,-,Read}')).toBe(2);
    expect(values.get('backup.bytes{-,-,Read}')).toBe(15);
    expect(values.get('backupstats.invalid_measurements{restore}')).toBe(2);
  });

  it('a free place is taken before one given back, which keeps the slots of its first worker', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    onTestFinished(() => stats.shutdown());
    // Three slots per family: the overflow series, the root's labels and one combination more.
    const link = stats.workerLink({ workers: 2, maxScopes: 3 });
    const first = connect(link);
    first.backup.scope({ operation: 'A' }).timedIncrement(1);
    first.close();
    // The free place: a slot of its own for B.
    const second = connect(link);
    second.backup.scope({ operation: 'B' }).timedIncrement(1);
    // The place given back: A's slot is there, so C overflows.
    const third = connect(link);
    third.backup.scope({ operation: 'A' }).timedIncrement(1);
    third.backup.scope({ operation: 'C' }).timedIncrement(1);
    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.operations{-,-,A}')).toBe(2);
    expect(values.get('backup.operations{-,-,B}')).toBe(1);
    expect(values.get('backup.operations{-,-,C}')).toBeUndefined();
    expect(values.get('backup.operations{overflow}')).toBe(1);
  });

  it('after close() the worker records nowhere, not into the numbers of the next owner of its place', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    onTestFinished(() => stats.shutdown());
    const link = stats.workerLink({ workers: 1 });
    const first = connect(link);
    const read = first.backup.scope({ operation: 'Read' });
    read.timedIncrementBytes(1, 1);
    first.close();
    first.close();
    const next = connect(link);
    read.timedIncrementBytes(1000, 1);
    first.backup.timedIncrement(1);
    first.backup.scope({ operation: 'New' }).timedIncrement(1);
    first.restore.timedIncrement(-1);
    next.backup.scope({ operation: 'Read' }).timedIncrementBytes(2, 1);
    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.operations{-,-,Read}')).toBe(2);
    expect(values.get('backup.bytes{-,-,Read}')).toBe(3);
    expect(values.get('backup.operations{-,-,-}')).toBeUndefined();
    expect(values.get('backup.operations{-,-,New}')).toBeUndefined();
    expect(values.get('backup.operations{overflow}')).toBeUndefined();
    expect(values.get('backupstats.invalid_measurements{restore}')).toBe(0);
  });

  it("close() runs at the thread's exit: one listener while connected, none once closed", () => {
    const before = process.listenerCount('exit');
    const stats = createBackupStats();
    onTestFinished(() => stats.shutdown());
    const worker = connectBackupStats(stats.workerLink());
    expect(process.listenerCount('exit')).toBe(before + 1);
    worker.close();
    expect(process.listenerCount('exit')).toBe(before);
  });

  it('a link of stats shut down takes no place: any number of workers connect, and record nothing', async () => {
    const stats = createBackupStats();
    await stats.shutdown();
    const link = stats.workerLink({ workers: 1 });
    expect(link).toEqual({
      backupstatsWorkerLink: 1,
      control: undefined,
      memory: undefined,
      places: 0,
      maxScopes: 2,
      histogramBoundaries: undefined,
    });
    const before = process.listenerCount('exit');
    const workers = [connectBackupStats(link), connectBackupStats(link)];
    expect(process.listenerCount('exit')).toBe(before);
    for (const worker of workers) {
      expect(Object.isFrozen(worker)).toBe(true);
      expect(() => worker.backup.scope({ operation: 'Read' }).timedIncrementBytes(10, 1)).not.toThrow();
      worker.close();
    }
  });
});
