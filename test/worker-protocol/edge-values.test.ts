// Values at the ends of what a worker writes, in process: the main thread reads them as a worker's numbers, not as
// damaged memory (test/worker-protocol/damaged-cells.test.ts has the values past them). A count of 2^53 - 1, the
// largest a cell holds exactly; and the minimum and maximum a slot's histogram starts with (Infinity and -Infinity)
// in a copy of it the main thread takes; and past them, a maximum below zero, which the worker's next record would
// raise again, so the copy is made consistent by hand. The cells are found from the slot's bytes cell
// (region-layout.ts: the count before it, the milliseconds after it, then the histogram's count, sum, minimum,
// maximum and zero count).
import type { WorkerLink } from 'backupstats';
import { connectBackupStats } from 'backupstats/worker';
import { describe, expect, onTestFinished } from 'vitest';
import type { DiagCapture } from '../support/diag-capture.js';
import { it } from '../support/fixtures.js';
import { statsWithHistograms } from '../support/histogram-stats.js';

const BYTES = 24_690;

/** A one-place link with histograms, its worker, and its place's memory. */
function place() {
  const { stats, collect } = statsWithHistograms();
  const link = stats.workerLink({ workers: 1, maxScopes: 2 });
  const worker = connectBackupStats(link);
  onTestFinished(() => worker.close());
  const memory = (link as WorkerLink & { memory: SharedArrayBuffer }).memory;
  return { worker, collect, int32: new Int32Array(memory), numbers: new Float64Array(memory) };
}

/** The one cell of `numbers` holding BYTES: the slot's bytes, before a read copies them beside the slot. */
function bytesCell(numbers: Float64Array): number {
  const found = [...numbers.keys()].filter((i) => numbers[i] === BYTES);
  expect(found).toHaveLength(1);
  return found[0] as number;
}

/** The slot's sequence number: the one word its first histogram record (`record`) takes from 0 to 2. */
function sequenceWord(int32: Int32Array, record: () => void): number {
  const words = int32.slice();
  record();
  const found = [...int32.keys()].filter((i) => words[i] === 0 && int32[i] === 2);
  expect(found).toHaveLength(1);
  return found[0] as number;
}

const saidOfLink = (diagnostics: DiagCapture): string[] =>
  diagnostics.messages.filter((message) => message.includes('worker link'));

describe('a value at the end of what a worker writes', () => {
  it('an operation count of 2^53 - 1 is read as a count', async ({ diagnostics }) => {
    const { worker, collect, numbers } = place();
    worker.backup.timedIncrementBytes(BYTES, 1);
    numbers[bytesCell(numbers) - 1] = Number.MAX_SAFE_INTEGER;
    expect((await collect()).values.get('backup.operations{-,-,-}')).toBe(Number.MAX_SAFE_INTEGER);
    expect(saidOfLink(diagnostics)).toEqual([]);
  });

  it('a zero count of 2^53 - 1 is read as a count', async ({ diagnostics }) => {
    const { worker, collect, numbers } = place();
    worker.backup.timedIncrementBytes(BYTES, 0);
    numbers[bytesCell(numbers) + 6] = Number.MAX_SAFE_INTEGER;
    expect((await collect()).values.get('backup.operations{-,-,-}')).toBe(1);
    worker.backup.timedIncrementBytes(1, 2);
    expect((await collect()).values.get('backup.operations{-,-,-}')).toBe(2);
    expect(saidOfLink(diagnostics)).toEqual([]);
  });

  it("a slot's starting minimum and maximum (Infinity, -Infinity) in a consistent copy are read as no duration", async ({
    diagnostics,
  }) => {
    const { worker, collect, int32, numbers } = place();
    const seq = sequenceWord(int32, () => worker.backup.timedIncrementBytes(BYTES, 1));
    const bytes = bytesCell(numbers);
    expect((await collect()).histogram({})).toMatchObject({ count: 1, min: 0.001, max: 0.001 });
    // A copy taken after a write that changed none of the counts: what the main thread reads is the start's.
    numbers[bytes + 4] = Number.POSITIVE_INFINITY;
    numbers[bytes + 5] = Number.NEGATIVE_INFINITY;
    int32[seq] = 4;
    expect((await collect()).histogram({})).toMatchObject({ count: 1, min: 0.001, max: 0.001 });
    worker.backup.timedIncrementBytes(1, 3);
    expect((await collect()).histogram({})).toMatchObject({ count: 2, min: 0.001, max: 0.003 });
    expect(saidOfLink(diagnostics)).toEqual([]);
  });

  it('a maximum below zero in a consistent copy is past them: the place is no longer read, reported once', async ({
    diagnostics,
  }) => {
    const { worker, collect, int32, numbers } = place();
    const seq = sequenceWord(int32, () => worker.backup.timedIncrementBytes(BYTES, 1));
    const bytes = bytesCell(numbers);
    await collect();
    // A record's next duration would raise it again: the copy is made consistent by hand.
    numbers[bytes + 5] = -1;
    int32[seq] = 4;
    await collect();
    worker.backup.timedIncrementBytes(1, 3);
    const { values, histogram } = await collect();
    expect([values.get('backup.operations{-,-,-}'), histogram({})?.count]).toEqual([1, 1]);
    const said = saidOfLink(diagnostics);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(
      'the shared memory of a worker link holds a histogram maximum of -1, which no worker writes',
    );
  });
});
