// Numbers in a place's shared memory that its worker cannot have written (damaged memory, or code of the worker's
// writing into the buffer), in process: the main thread reads every value as untrusted. A place with a value out of
// its range is no longer read: what was read of it before stays, its later numbers are dropped, reported once; the other
// places and the main thread's own records still export, and neither flush() nor shutdown() throws. Two workers are
// connected on this thread: the first takes place 0, whose cells the test finds by the values recorded into them.
import type { WorkerLink } from 'backupstats';
import { connectBackupStats } from 'backupstats/worker';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { statsWithHistograms } from '../support/histogram-stats.js';

/** The views of place 0 of a two-place link (link/worker-link.ts's LinkData.memory holds the places in a row). */
function placeZero(link: WorkerLink): { int32: Int32Array; numbers: Float64Array } {
  const memory = (link as unknown as { memory: SharedArrayBuffer }).memory;
  const half = memory.byteLength / 2;
  return { int32: new Int32Array(memory, 0, half / 4), numbers: new Float64Array(memory, 0, half / 8) };
}

/** The one cell of `numbers` that holds `value`. */
function cellOf(numbers: Float64Array, value: number): number {
  const found = [...numbers.keys()].filter((i) => numbers[i] === value);
  expect(found).toHaveLength(1);
  return found[0] as number;
}

// The slot recorded into holds count 2, bytes 24,690, milliseconds 3.5, then its histogram: count 14, sum 3.5, min
// and max 0.25 (region-layout.ts: COUNT, BYTES, MILLIS, H_COUNT, H_SUM, H_MIN, H_MAX from the slot's first cell).
// Its family's invalid measurements are 3.
const BYTES = 24_690;
/**
 * What is damaged: a word of the place's Int32 header or a cell of its numbers, found from the numbers; the value
 * written there; and what the report says the memory holds.
 */
type Damage = [
  what: string,
  view: 'int32' | 'numbers',
  at: (numbers: Float64Array) => number,
  value: number,
  held: string,
];
const bytesCell = (numbers: Float64Array): number => cellOf(numbers, BYTES);
const damages: Damage[] = [
  // The backup family's published slot count is the header's first word.
  ['a published slot count of 1e6', 'int32', () => 0, 1e6, 'a published slot count of 1000000'],
  ['a published slot count of -1', 'int32', () => 0, -1, 'a published slot count of -1'],
  ['bytes of Infinity', 'numbers', bytesCell, Number.POSITIVE_INFINITY, 'a byte count of Infinity'],
  ['bytes of 2^60', 'numbers', bytesCell, 2 ** 60, 'a byte count of 1152921504606847000'],
  ['a count of NaN', 'numbers', (n) => bytesCell(n) - 1, Number.NaN, 'an operation count of NaN'],
  ['a count that is not whole', 'numbers', (n) => bytesCell(n) - 1, 2.5, 'an operation count of 3.5'],
  ['a count below zero', 'numbers', (n) => bytesCell(n) - 1, -10, 'an operation count of -9'],
  ['a count of 2^60', 'numbers', (n) => bytesCell(n) - 1, 2 ** 60, 'an operation count of 1152921504606847000'],
  ['milliseconds below zero', 'numbers', (n) => bytesCell(n) + 1, -4, 'a duration of -2.25 ms'],
  [
    'invalid measurements of Infinity',
    'numbers',
    (n) => cellOf(n, 3),
    Number.POSITIVE_INFINITY,
    'Infinity invalid measurements',
  ],
  [
    'a histogram count of 2^60',
    'numbers',
    (n) => bytesCell(n) + 2,
    2 ** 60,
    'a histogram count of 1152921504606847000',
  ],
  ['a histogram count that is not whole', 'numbers', (n) => bytesCell(n) + 2, 14.5, 'a histogram count of 21.5'],
  // The zero count: no record here is of 0 ms, so it stays below the 0 already taken.
  ['a zero count below what was taken', 'numbers', (n) => bytesCell(n) + 6, -1, 'a histogram count of -1'],
  ['a histogram sum of NaN', 'numbers', (n) => bytesCell(n) + 3, Number.NaN, 'a histogram sum of NaN'],
  ['a histogram sum below zero', 'numbers', (n) => bytesCell(n) + 3, -10, 'a histogram sum of -8.25'],
  [
    'a histogram sum of Infinity',
    'numbers',
    (n) => bytesCell(n) + 3,
    Number.POSITIVE_INFINITY,
    'a histogram sum of Infinity',
  ],
  ['a histogram minimum below zero', 'numbers', (n) => bytesCell(n) + 4, -1, 'a histogram minimum of -1'],
  ['a histogram minimum of NaN', 'numbers', (n) => bytesCell(n) + 4, Number.NaN, 'a histogram minimum of NaN'],
  [
    'a histogram maximum of Infinity',
    'numbers',
    (n) => bytesCell(n) + 5,
    Number.POSITIVE_INFINITY,
    'a histogram maximum of Infinity',
  ],
  ['a histogram maximum of NaN', 'numbers', (n) => bytesCell(n) + 5, Number.NaN, 'a histogram maximum of NaN'],
];

describe('a place whose memory holds a value its worker cannot have written', () => {
  for (const [what, view, at, value, held] of damages) {
    it(`${what}: that worker's later numbers are dropped, reported once; the others export; flush() and shutdown() do not throw`, async ({
      diagnostics,
    }) => {
      const { stats, collect } = statsWithHistograms();
      const link = stats.workerLink({ workers: 2 });
      const damaged = connectBackupStats(link);
      const intact = connectBackupStats(link);
      const records = (): void => {
        damaged.backup.scope({ operation: 'shared' }).timedIncrementBytes(12_345, 0.25, 7);
        intact.backup.scope({ operation: 'intact' }).timedIncrementBytes(777, 2);
        stats.backup.scope({ operation: 'shared' }).timedIncrementBytes(5, 1);
      };
      records();
      await collect();
      records();
      for (let i = 0; i < 3; i++) damaged.backup.timedIncrement(-1);
      const place = placeZero(link);
      place[view][at(place.numbers)] = value;
      records();
      expect(() => stats.flush()).not.toThrow();
      const { values, histogram } = await collect();
      // The damaged place's first record, read before the damage, and the main thread's three.
      expect(values.get('backup.operations{-,-,shared}')).toBe(4);
      expect(values.get('backup.bytes{-,-,shared}')).toBe(12_345 + 3 * 5);
      expect(values.get('backup.time{-,-,shared}')).toBeCloseTo(0.00175 + 0.003, 12);
      expect(histogram({ operation: 'shared' })).toMatchObject({ count: 7 + 3, min: 0.000_25, max: 0.001 });
      expect(values.get('backup.operations{-,-,intact}')).toBe(3);
      expect(values.get('backup.bytes{-,-,intact}')).toBe(3 * 777);
      expect(values.get('backupstats.invalid_measurements{backup}')).toBe(0);
      const said = diagnostics.messages.filter((m) => m.includes('worker link'));
      expect(said).toHaveLength(1);
      expect(said[0]).toContain(`the shared memory of a worker link holds ${held}, which no worker writes`);
      let shutdown: Promise<void> | undefined;
      expect(() => {
        shutdown = stats.shutdown();
      }).not.toThrow();
      await expect(shutdown).resolves.toBeUndefined();
      damaged.close();
      intact.close();
    });
  }
});

describe('a damaged place whose value is put back', () => {
  it('is still not read: the records made after the repair are dropped, and nothing more is reported', async ({
    diagnostics,
  }) => {
    const { stats, collect } = statsWithHistograms();
    const link = stats.workerLink({ workers: 2 });
    const worker = connectBackupStats(link);
    const record = (): void => worker.backup.scope({ operation: 'shared' }).timedIncrementBytes(BYTES, 0.25, 7);
    record();
    // Found before the first read: the read copies the bytes it took into the slot's rebase cells.
    const place = placeZero(link);
    const at = bytesCell(place.numbers);
    await collect();
    place.numbers[at] = Number.NaN;
    await collect();
    place.numbers[at] = BYTES;
    record();
    const { values, histogram } = await collect();
    expect(values.get('backup.operations{-,-,shared}')).toBe(1);
    expect(values.get('backup.bytes{-,-,shared}')).toBe(BYTES);
    expect(histogram({ operation: 'shared' })?.count).toBe(7);
    expect(diagnostics.messages.filter((m) => m.includes('worker link'))).toHaveLength(1);
    worker.close();
  });
});
