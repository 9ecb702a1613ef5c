// What only another thread can show: a worker gone without a word (terminate()), a live worker's place in another
// thread, records racing the main thread's reads. The threads load the library the test loads: its source in the
// mutation run, with the same mutant active (test/support/workers.ts), the build elsewhere.
import { connectBackupStats, type WorkerBackupStats } from 'backupstats/worker';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { bucketsAddUp, statsWithHistograms } from '../support/histogram-stats.js';
import { startRecordingWorker } from '../support/workers.js';

const labels = { operation: 'Source:Read' };
const key = '{-,-,Source:Read}';
const REFUSED =
  'backupstats: connectBackupStats link is a link whose 1 place(s) are all taken by live workers; accepted: a link with a free place: stats.workerLink({ workers: N }) for N workers recording at once, or a link per worker';

/** The main thread's own connection to `link`, let go when the test ends. */
function connect(link: Parameters<typeof connectBackupStats>[0]): WorkerBackupStats {
  const worker = connectBackupStats(link);
  onTestFinished(() => worker.close());
  return worker;
}

// A thread loads the source through tsx in a second or two on a busy machine; the refusals wait 1 s each.
const SLOW = { timeout: 30_000 };

describe('places held by worker threads', SLOW, () => {
  it("a terminated worker's place is taken over by the next worker, which goes on with its numbers", async () => {
    const { stats, collect } = statsWithHistograms();
    const link = stats.workerLink({ workers: 2 });
    // One place is this thread's, which cannot answer probes while it looks for a place; the other a thread's.
    const own = connect(link);
    const first = await startRecordingWorker(link);
    await first.run({ kind: 'loop', count: 30, ms: 2, bytes: 5, labels });
    // Both are alive: refused. The thread answered its probes; this thread answers them once it waits.
    expect(() => connectBackupStats(link)).toThrow(REFUSED.replace('1 place(s)', '2 place(s)'));
    await first.run({ kind: 'loop', count: 1, ms: 2, bytes: 5, labels });
    await first.worker.terminate();
    // Gone: the probes it answered before do not keep it alive.
    const next = connect(link);
    next.backup.scope(labels).timedIncrementBytes(5, 2);
    own.backup.scope(labels).timedIncrementBytes(5, 2);
    const exported = await collect();
    expect(exported.values.get(`backup.operations${key}`)).toBe(33);
    expect(exported.values.get(`backup.bytes${key}`)).toBe(165);
    expect(exported.histogram(labels)).toMatchObject({ count: 33, min: 0.002, max: 0.002 });
    expect(exported.histogram(labels)?.sum).toBeCloseTo(0.066, 12);
  });

  it('a place given back by an owner probed while busy: its next owner starts with no probe counted', async () => {
    const { stats, collect } = statsWithHistograms();
    const link = stats.workerLink({ workers: 1 });
    const busy = connectBackupStats(link);
    busy.backup.scope(labels).timedIncrement(1);
    expect(() => connectBackupStats(link)).toThrow(REFUSED);
    // Closed before it could answer the probes it was woken by.
    busy.close();
    const thread = await startRecordingWorker(link);
    await thread.run({ kind: 'loop', count: 2, ms: 1, labels });
    await thread.worker.terminate();
    connect(link).backup.scope(labels).timedIncrement(1);
    expect((await collect()).values.get(`backup.operations${key}`)).toBe(4);
  });

  it('a live worker keeps its place against every probe; one that gives it back while another looks is replaced', async () => {
    const { stats, collect } = statsWithHistograms();
    const link = stats.workerLink({ workers: 1 });
    const first = await startRecordingWorker(link);
    await first.run({ kind: 'loop', count: 3, ms: 1, labels });
    expect(() => connectBackupStats(link)).toThrow(REFUSED);
    // Asked again after the first worker answered the probes: still alive.
    await first.run({ kind: 'loop', count: 1, ms: 1, labels });
    expect(() => connectBackupStats(link)).toThrow(REFUSED);
    // It gives the place back 50 ms from now: a worker connecting now looks again until then.
    await first.run({ kind: 'closeLater', millis: 50 });
    const next = connect(link);
    next.backup.scope(labels).timedIncrement(1);
    expect((await collect()).values.get(`backup.operations${key}`)).toBe(5);
  });

  it('a place still being released: the closed owner answers no probe for the worker that took it after', async () => {
    const { stats, collect } = statsWithHistograms();
    const link = stats.workerLink({ workers: 1 });
    const closed = connectBackupStats(link);
    closed.backup.scope(labels).timedIncrement(1);
    closed.close();
    // The closed owner's beacon waiters are woken by close(); their answers run while this test waits here.
    const thread = await startRecordingWorker(link);
    await thread.run({ kind: 'loop', count: 2, ms: 1, labels });
    await thread.worker.terminate();
    // The thread is gone: nothing answers for its place, which the next worker takes over.
    const next = connect(link);
    next.backup.scope(labels).timedIncrement(1);
    expect((await collect()).values.get(`backup.operations${key}`)).toBe(4);
  });

  it('a worker that ends by process.exit() gives its place back', async () => {
    const { stats, collect } = statsWithHistograms();
    const link = stats.workerLink({ workers: 1 });
    const thread = await startRecordingWorker(link);
    await thread.run({ kind: 'loop', count: 2, ms: 1, labels });
    thread.send({ kind: 'exit' });
    expect(await thread.exited).toBe(0);
    connect(link).backup.scope(labels).timedIncrement(1);
    expect((await collect()).values.get(`backup.operations${key}`)).toBe(3);
  });
});

describe('records racing reads', SLOW, () => {
  it('every collection made while a worker records holds whole histogram records; the last one holds them all', async () => {
    const { stats, collect } = statsWithHistograms();
    const thread = await startRecordingWorker(stats.workerLink());
    // A loop that ends rather than a thread terminated mid-record: in the mutation run, the instrumented source has
    // calls between a record's stores, where terminate() could stop it half-way.
    const done = thread.run({ kind: 'loop', count: 300_000, ms: 1.5, bytes: 7, weight: 2, labels });
    for (let i = 0; i < 30; i++) {
      const point = (await collect()).histogram(labels);
      if (point === undefined) continue;
      expect(point && bucketsAddUp(point)).toBe(true);
      expect(point.sum).toBeCloseTo((point.count * 1.5) / 1000, 6);
      expect(point).toMatchObject({ min: 0.0015, max: 0.0015 });
    }
    await done;
    const exported = await collect();
    expect(exported.values.get(`backup.operations${key}`)).toBe(300_000);
    expect(exported.values.get(`backup.bytes${key}`)).toBe(2_100_000);
    expect(exported.histogram(labels)?.count).toBe(600_000);
    expect(exported.histogram(labels)?.sum).toBeCloseTo(900, 6);
  });

  it('records of 2^52 bytes each, read while they are made: every one within the bound of its read is kept, exactly', async () => {
    const { stats, collect } = statsWithHistograms();
    const thread = await startRecordingWorker(stats.workerLink());
    // Each record fills half the bound: the worker keeps one only if the main thread has read the one before, and
    // the slot's cells rebase every other record kept.
    const count = 2_000_000;
    let finished = false;
    const done = thread.run({ kind: 'loop', count, ms: 1, bytes: 2 ** 52, labels }).then(() => {
      finished = true;
    });
    let reads = 0;
    while (!finished) {
      stats.flush();
      reads += 1;
      await new Promise((resolve) => setImmediate(resolve));
    }
    await done;
    const { values } = await collect();
    const kept = values.get(`backup.operations${key}`) as number;
    expect(kept).toBeGreaterThan(2);
    expect(kept + (values.get('backupstats.invalid_measurements{backup}') as number)).toBe(count);
    expect(values.get(`backup.bytes${key}`)).toBe(kept * 2 ** 52);
    expect(values.get(`backup.time${key}`)).toBeCloseTo(kept / 1000, 9);
    expect(reads).toBeGreaterThan(0);
  });
});
