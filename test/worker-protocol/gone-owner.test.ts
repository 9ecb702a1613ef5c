// A place whose owner is gone, in process. A worker thread that ends without close() (terminate(), a crash) leaves
// its place's state saying "owned" while its beacon's waiters are gone with the thread; threads.test.ts makes that
// happen with real threads. Here the main thread's own connection closes (which also drops its waiters) and the test
// sets the place's state word back to "owned", the value it had while the owner lived: the next connection must take
// the place over, with its numbers, and must not be misled by probes an owner answered, by probes counted for an
// earlier owner of the place, or by the waiters of an owner that closed. The state word is found as the one word of
// the link's control buffer that a first connection takes from 0 to 2. Probers take a lock (the buffer's first word,
// before three words per place) so that no two probe at once; a lock held by another prober is waited for, then
// given up on, and the gone owner's place is left for a later look.
import { createBackupStats, type WorkerLink } from 'backupstats';
import { connectBackupStats, type WorkerBackupStats } from 'backupstats/worker';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import type { Harness } from '../support/harness.js';
import { valuesByKey } from '../support/harness.js';

const OWNED = 2;
const LOCK = 0;
const REFUSED =
  'backupstats: connectBackupStats link is a link whose 1 place(s) are all taken by live workers; accepted: a link with a free place: stats.workerLink({ workers: N }) for N workers recording at once, or a link per worker';

/** The link's control words (link/worker-link.ts's LinkData.control). */
const controlOf = (link: WorkerLink): Int32Array =>
  new Int32Array((link as unknown as { control: SharedArrayBuffer }).control);

/** Lets this thread's event loop run: the owners' beacons answer the probes they were woken by. */
const answerProbes = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5));

/** A link of `places` places on stats of the harness, and a connection that also finds its place's state word. */
function linkOn(harness: Harness, places: number) {
  const stats = createBackupStats({ meterProvider: harness.provider });
  onTestFinished(() => stats.shutdown());
  const link = stats.workerLink({ workers: places });
  const control = controlOf(link);
  const connect = (): WorkerBackupStats => {
    const worker = connectBackupStats(link);
    onTestFinished(() => worker.close());
    return worker;
  };
  return {
    link,
    connect,
    /** Connects to a free place, returning the connection and its place's state word. */
    connectFree(): [WorkerBackupStats, number] {
      const before = control.slice();
      const worker = connect();
      const changed = [...control.keys()].filter((i) => before[i] === 0 && control[i] === OWNED);
      expect(changed).toHaveLength(1);
      return [worker, changed[0] as number];
    },
    control,
    /** Closes `worker` and leaves its place as a worker gone without a word would. */
    leaveGone(worker: WorkerBackupStats, state: number): void {
      worker.close();
      control[state] = OWNED;
    },
  };
}

/** A link of 5 places whose first owner was probed 4 times while this thread was busy, by connections that took
 * the 4 others from owners gone; they keep them. */
function probedFourTimes(harness: Harness) {
  const places = linkOn(harness, 5);
  const [first, state] = places.connectFree();
  first.backup.timedIncrement(1);
  for (let i = 0; i < 4; i++) {
    const [other, otherState] = places.connectFree();
    places.leaveGone(other, otherState);
  }
  for (let i = 0; i < 4; i++) places.connect();
  return { ...places, first, state };
}

const operations = async (harness: Harness): Promise<number | undefined> =>
  valuesByKey(await harness.collect()).get('backup.operations{-,-,-}');

// A connection refused under a broken protocol looks for 1 s first.
describe('a place whose owner is gone', { timeout: 15_000 }, () => {
  it('is taken over by the next connection, which goes on with its numbers', async ({ harness }) => {
    const { connectFree, leaveGone, connect } = linkOn(harness, 1);
    const [first, state] = connectFree();
    first.backup.scope({ operation: 'Read' }).timedIncrementBytes(10, 1);
    leaveGone(first, state);
    const next = connect();
    next.backup.scope({ operation: 'Read' }).timedIncrementBytes(5, 1);
    const values = valuesByKey(await harness.collect());
    expect([values.get('backup.operations{-,-,Read}'), values.get('backup.bytes{-,-,Read}')]).toEqual([2, 15]);
  });

  it('whose probes were answered before it went is taken over: answered probes do not keep it alive', async ({
    harness,
  }) => {
    const { first, state, leaveGone, connect } = probedFourTimes(harness);
    await answerProbes();
    leaveGone(first, state);
    connect().backup.timedIncrement(1);
    expect(await operations(harness)).toBe(2);
  });

  it('is taken over when an earlier owner of the place left probes unanswered: its next owner starts at none', async ({
    harness,
  }) => {
    const { first, state, leaveGone, connect } = probedFourTimes(harness);
    // Closed before it could answer the probes: they stay counted on the place.
    first.close();
    const second = connect();
    second.backup.timedIncrement(1);
    leaveGone(second, state);
    connect().backup.timedIncrement(1);
    expect(await operations(harness)).toBe(3);
  });

  it('is taken over when an owner before it closed: a closed owner answers no probe for later ones', async ({
    harness,
  }) => {
    const { connectFree, leaveGone, connect } = linkOn(harness, 1);
    const [first, state] = connectFree();
    first.backup.timedIncrement(1);
    first.close();
    // The closed owner's waiters, woken by its close(), run now.
    await answerProbes();
    const second = connect();
    second.backup.timedIncrement(1);
    leaveGone(second, state);
    connect().backup.timedIncrement(1);
    expect(await operations(harness)).toBe(3);
  });

  it('is not probed while another prober holds the lock: the connection waits, gives up, and is refused', async ({
    harness,
  }) => {
    const { connectFree, leaveGone, connect, control, link } = linkOn(harness, 1);
    const [first, state] = connectFree();
    // The state word of the first place, after the lock.
    expect(state).toBe(LOCK + 1);
    first.backup.timedIncrement(1);
    leaveGone(first, state);
    // Another prober in the middle of its probe, for as long as this connection looks.
    control[LOCK] = 1;
    expect(() => connectBackupStats(link)).toThrow(new TypeError(REFUSED));
    expect(control[state]).toBe(OWNED);
    // Its probe over: the place is taken.
    control[LOCK] = 0;
    connect().backup.timedIncrement(1);
    expect(await operations(harness)).toBe(2);
  });
});
