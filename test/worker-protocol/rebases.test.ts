// The main thread's side of a slot's rebase, in process (worker/shared-series-handle.ts rebases a slot whose bytes
// or milliseconds would pass 2^53 - 1: it takes off them what the main thread has taken, says how much in the slot's
// rebase cells, and counts the rebase in its rebase word, odd while it writes). A worker rebases here for real, with
// halves of 2^53 and a read between them; the test then writes the words and cells as a rebase in progress, a rebase
// read before the record that needed it, or damaged memory would leave them. The rebase word is found as the one word
// of the place that the rebase takes from 0 to 2, the cell of what it took off as the one it takes from 0 to what the
// first read took (the bytes cell, the milliseconds one after it).
import { createBackupStats, type WorkerLink } from 'backupstats';
import { connectBackupStats } from 'backupstats/worker';
import { describe, expect, onTestFinished } from 'vitest';
import type { DiagCapture } from '../support/diag-capture.js';
import { it } from '../support/fixtures.js';
import { type Harness, valuesByKey } from '../support/harness.js';

const HALF = 2 ** 52;

/** A one-place link whose worker's root series has just rebased (not yet read), and where its words and cells are. */
async function rebased(harness: Harness) {
  const stats = createBackupStats({ meterProvider: harness.provider });
  onTestFinished(() => stats.shutdown());
  const link = stats.workerLink({ workers: 1, maxScopes: 2 });
  const worker = connectBackupStats(link);
  onTestFinished(() => worker.close());
  const memory = (link as WorkerLink & { memory: SharedArrayBuffer }).memory;
  const int32 = new Int32Array(memory);
  const numbers = new Float64Array(memory);
  const totals = async (): Promise<(number | undefined)[]> => {
    const values = valuesByKey(await harness.collect());
    return ['operations', 'bytes', 'time'].map((name) => values.get(`backup.${name}{-,-,-}`));
  };
  worker.backup.timedIncrementBytes(HALF + 8, 1);
  expect(await totals()).toEqual([1, HALF + 8, 0.001]);
  const [words, cells] = [int32.slice(), numbers.slice()];
  // Past 2^53 - 1 bytes in all: the slot rebases, taking off the HALF + 8 bytes and 1 ms the read took.
  worker.backup.timedIncrementBytes(HALF, 2);
  const word = [...int32.keys()].filter((i) => words[i] === 0 && int32[i] === 2);
  const rebasedBytes = [...numbers.keys()].filter((i) => cells[i] === 0 && numbers[i] === HALF + 8);
  const bytes = [...numbers.keys()].filter((i) => cells[i] === HALF + 8 && numbers[i] === HALF);
  expect([word.length, rebasedBytes.length, bytes.length]).toEqual([1, 1, 1]);
  const at = { word: word[0] as number, rebasedBytes: rebasedBytes[0] as number, bytes: bytes[0] as number };
  expect([numbers[at.rebasedBytes + 1], numbers[at.bytes + 1]]).toEqual([1, 2]);
  return { worker, int32, numbers, at, totals };
}

const saidOfLink = (diagnostics: DiagCapture): string[] =>
  diagnostics.messages.filter((message) => message.includes('worker link'));

describe("a slot's rebase, read by the main thread", () => {
  it('keeps the totals exact, and is taken up in the word beside the rebase number', async ({ harness }) => {
    const { int32, at, totals } = await rebased(harness);
    expect(int32[at.word + 1]).toBe(0);
    expect(await totals()).toEqual([2, 2 * HALF + 8, 0.003]);
    expect(int32[at.word + 1]).toBe(2);
  });

  it('of bytes alone (no time recorded, 0 ms taken off): keeps the totals exact', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    onTestFinished(() => stats.shutdown());
    const worker = connectBackupStats(stats.workerLink({ workers: 1, maxScopes: 2 }));
    onTestFinished(() => worker.close());
    const values = async () => valuesByKey(await harness.collect());
    worker.backup.timedIncrementBytes(HALF, 0);
    expect((await values()).get('backup.bytes{-,-,-}')).toBe(HALF);
    worker.backup.timedIncrementBytes(HALF, 0);
    const after = await values();
    expect([after.get('backup.operations{-,-,-}'), after.get('backup.bytes{-,-,-}')]).toEqual([2, 2 * HALF]);
  });

  it('being written (its number odd): the counters wait for the read after it is written', async ({ harness }) => {
    const { int32, at, totals } = await rebased(harness);
    int32[at.word] = 1;
    expect(await totals()).toEqual([1, HALF + 8, 0.001]);
    expect(int32[at.word + 1]).toBe(0);
    int32[at.word] = 2;
    expect(await totals()).toEqual([2, 2 * HALF + 8, 0.003]);
  });

  it('read before the record that needed it (nothing gained): taken up all the same, and the record comes next', async ({
    harness,
  }) => {
    const { worker, int32, numbers, at, totals } = await rebased(harness);
    expect(await totals()).toEqual([2, 2 * HALF + 8, 0.003]);
    // A second rebase as the worker writes one, taking off the HALF bytes and 2 ms this read took, without its record.
    int32[at.word] = 3;
    numbers[at.rebasedBytes] = HALF;
    numbers[at.rebasedBytes + 1] = 2;
    numbers[at.bytes] = 0;
    numbers[at.bytes + 1] = 0;
    int32[at.word] = 4;
    expect(await totals()).toEqual([2, 2 * HALF + 8, 0.003]);
    expect(int32[at.word + 1]).toBe(4);
    worker.backup.timedIncrementBytes(HALF, 4);
    expect(await totals()).toEqual([3, 3 * HALF + 8, 0.007]);
  });

  type Place = Awaited<ReturnType<typeof rebased>>;
  /** What is damaged: the rebase word or a cell of what the rebase took off; the value written; what is reported. */
  const damages: [
    what: string,
    at: (place: Place) => [Int32Array | Float64Array, number],
    value: number,
    held: string,
  ][] = [
    ['a rebase number three ahead', ({ int32, at }) => [int32, at.word], 3, 'a rebase number of 3'],
    ['a rebase number behind', ({ int32, at }) => [int32, at.word], -1, 'a rebase number of -1'],
    [
      'more bytes taken off than were read',
      ({ numbers, at }) => [numbers, at.rebasedBytes],
      HALF + 16,
      `a rebase of ${HALF + 16} bytes`,
    ],
    ['bytes taken off below zero', ({ numbers, at }) => [numbers, at.rebasedBytes], -1, 'a rebase of -1 bytes'],
    [
      'more milliseconds taken off than were read',
      ({ numbers, at }) => [numbers, at.rebasedBytes + 1],
      5,
      'a rebase of 5 ms',
    ],
    ['milliseconds taken off below zero', ({ numbers, at }) => [numbers, at.rebasedBytes + 1], -1, 'a rebase of -1 ms'],
  ];
  for (const [what, at, value, held] of damages) {
    it(`with ${what}: the place is no longer read, reported once with what it holds`, async ({
      harness,
      diagnostics,
    }) => {
      const place = await rebased(harness);
      const [view, index] = at(place);
      view[index] = value;
      expect(await place.totals()).toEqual([1, HALF + 8, 0.001]);
      place.worker.backup.timedIncrementBytes(1, 1);
      expect(await place.totals()).toEqual([1, HALF + 8, 0.001]);
      const said = saidOfLink(diagnostics);
      expect(said).toHaveLength(1);
      expect(said[0]).toContain(`the shared memory of a worker link holds ${held}, which no worker writes`);
    });
  }
});
