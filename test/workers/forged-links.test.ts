// A forged or damaged worker link is refused whole by connectBackupStats, in a real worker thread: a TypeError
// naming what does not agree, never a hang (negative boundaries sent the bucket search the wrong way for ever) nor
// a RangeError (a control buffer too small for the places). A worker that connects to stats already shut down is
// warned once on its own stderr, and records nothing.
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, vi } from 'vitest';
import { it } from '../support/fixtures.js';
import { statsWithHistograms } from '../support/histogram-stats.js';

/**
 * Connects, in a worker thread, to each link it is sent, records once on it, and posts what happened. A link that
 * it connected to is left connected: its stats hold that link's place, which no other case uses.
 */
const WORKER = `
const { parentPort } = require('node:worker_threads');
const library = import('backupstats/worker');
parentPort.on('message', async (link) => {
  const { connectBackupStats } = await library;
  try {
    const stats = connectBackupStats(link);
    stats.backup.scope({ operation: 'forged' }).timedIncrementBytes(10, 1);
    parentPort.postMessage({ connected: true });
  } catch (error) {
    parentPort.postMessage({ name: error.name, message: error.message });
  }
});
`;

/** A link as it travels to a worker, cloned: the fields its public type keeps to itself. */
interface LinkFields {
  readonly backupstatsWorkerLink: 1;
  readonly control: SharedArrayBuffer | undefined;
  readonly memory: SharedArrayBuffer | undefined;
  readonly places: number;
  readonly maxScopes: number;
  readonly histogramBoundaries: readonly number[] | undefined;
}

interface Answer {
  connected?: boolean;
  name?: string;
  message?: string;
}

/**
 * The thread the cases share: starting one loads the library anew, which costs more than a case. A case that
 * meets a hang ends it, and the next case starts another.
 */
let shared: Worker | undefined;
afterAll(() => shared?.terminate());

/**
 * Sends `link` to a worker (the shared one, or with `own` a new one whose stderr is the case's alone and which ends
 * with it); resolves with its answer and what the own worker wrote on stderr, or fails after a second.
 */
async function connectIn(link: unknown, own = false): Promise<{ answer: Answer; stderr: string }> {
  let stderr = '';
  let worker: Worker;
  if (own) {
    worker = new Worker(WORKER, { eval: true, stderr: true });
    worker.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
  } else {
    shared ??= new Worker(WORKER, { eval: true });
    worker = shared;
  }
  let answer: Answer | undefined;
  const onMessage = (message: Answer) => {
    answer = message;
  };
  worker.once('message', onMessage);
  worker.postMessage(link);
  try {
    // A hang detector, not a timing: a refusal takes microseconds, a hang for ever.
    await vi.waitFor(() => expect(answer).toBeDefined(), { timeout: 1000, interval: 10 });
  } catch (error) {
    if (worker === shared) shared = undefined;
    await worker.terminate();
    throw error;
  } finally {
    worker.off('message', onMessage);
    if (own) await worker.terminate();
  }
  return { answer: answer as Answer, stderr };
}

describe('forged worker links', () => {
  const forged: [string, (real: LinkFields, other: LinkFields) => unknown][] = [
    [
      'a NaN boundary',
      (l) => ({ ...l, histogramBoundaries: l.histogramBoundaries?.map((b, i) => (i === 0 ? Number.NaN : b)) }),
    ],
    ['negative boundaries', (l) => ({ ...l, histogramBoundaries: l.histogramBoundaries?.map((b) => -b) })],
    [
      'boundaries in decreasing order',
      (l) => ({ ...l, histogramBoundaries: [...(l.histogramBoundaries ?? [])].reverse() }),
    ],
    [
      'an infinite boundary',
      (l) => ({
        ...l,
        histogramBoundaries: l.histogramBoundaries?.map((b, i) => (i === 1 ? Number.POSITIVE_INFINITY : b)),
      }),
    ],
    ['a control buffer for fewer places', (l, o) => ({ ...l, control: o.control })],
    ['a control buffer for more places', (l) => ({ ...l, places: 1 })],
    ['memory of places of another size', (l, o) => ({ ...l, memory: o.memory })],
    ['a maxScopes its places do not fit', (l) => ({ ...l, maxScopes: l.maxScopes + 1 })],
    ['places without a control buffer', (l) => ({ ...l, control: undefined })],
  ];
  it.for(forged)('%s: a TypeError, at once', async ([, forge]) => {
    const { stats } = statsWithHistograms();
    const real = stats.workerLink({ workers: 2 }) as unknown as LinkFields;
    const other = stats.workerLink({ workers: 1, maxScopes: 8 }) as unknown as LinkFields;
    const { answer } = await connectIn(forge(real, other));
    expect(answer.name, answer.message).toBe('TypeError');
    expect(answer.message).toMatch(/^backupstats: connectBackupStats link is an object \(.+\); accepted: /);
  });

  it('the real link connects', async () => {
    const { stats, collect } = statsWithHistograms();
    const { answer } = await connectIn(stats.workerLink({ workers: 2 }));
    expect(answer).toEqual({ connected: true });
    expect((await collect()).values.get('backup.operations{-,-,forged}')).toBe(1);
  });

  it('a worker that connects after the stats shut down is reported once on its stderr, and records nothing', async () => {
    const { stats, collect } = statsWithHistograms();
    const link = stats.workerLink({ workers: 1 });
    stats.backup.timedIncrement(1);
    await stats.shutdown();
    const { answer, stderr } = await connectIn(link, true);
    expect(answer).toEqual({ connected: true });
    expect(stderr).toBe(
      'backupstats: connectBackupStats got the link of stats that were shut down; what this worker records is ignored\n',
    );
    const { values } = await collect();
    expect(values.get('backup.operations{-,-,-}')).toBe(1);
    expect(values.get('backup.operations{-,-,forged}')).toBeUndefined();
  });
});
