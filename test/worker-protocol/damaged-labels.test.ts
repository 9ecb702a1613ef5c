// Labels in a place's label heap that the worker did not write (damaged memory), in process: the main thread reads a
// slot's labels as UTF-8 JSON of three strings; text that does not parse, or parses to anything else, sends the slot's
// numbers to the overflow series instead of a series of made-up labels, and the read does not throw. The worker
// writes each slot's labels when it scopes it and the main thread reads them at its first read of the slot, so the
// test overwrites them in between, with text of the same length.
import { createBackupStats, type WorkerLink } from 'backupstats';
import { connectBackupStats } from 'backupstats/worker';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { valuesByKey } from '../support/harness.js';

/** The place's memory of a one-place link (link/worker-link.ts's LinkData.memory), as bytes. */
const bytesOf = (link: WorkerLink): Uint8Array =>
  new Uint8Array((link as unknown as { memory: SharedArrayBuffer }).memory);

/** Overwrites the one copy of `text` in `bytes` with `forged`, padded with spaces to the same length. */
function overwrite(bytes: Uint8Array, text: string, forged: string): void {
  const encoded = Buffer.from(text);
  const at = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(encoded);
  expect(at).toBeGreaterThan(0);
  expect(forged.length).toBeLessThanOrEqual(encoded.length);
  bytes.set(Buffer.from(forged.padEnd(encoded.length, ' ')), at);
}

describe('labels the worker did not write', () => {
  const damaged: [string, string][] = [
    ['not JSON', '["-","-",'],
    ['an object', '{"a":"b"}'],
    ['a string of three characters', '"abc"'],
    ['two strings', '["-","-"]'],
    ['three values, one a number', '["-","-",7]'],
    ['three values, one null', '[null,"-","-"]'],
  ];

  it(`go to the overflow series: ${damaged.map(([what]) => what).join(', ')}`, async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    onTestFinished(() => stats.shutdown());
    const link = stats.workerLink({ workers: 1 });
    const worker = connectBackupStats(link);
    onTestFinished(() => worker.close());
    const operations = damaged.map((_, i) => `damaged-${i}`);
    for (const operation of [...operations, 'intact']) worker.backup.scope({ operation }).timedIncrementBytes(10, 1);
    const bytes = bytesOf(link);
    for (const [i, [, forged]] of damaged.entries()) {
      overwrite(bytes, JSON.stringify(['-', '-', operations[i]]), forged);
    }
    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.operations{overflow}')).toBe(damaged.length);
    expect(values.get('backup.bytes{overflow}')).toBe(10 * damaged.length);
    expect(values.get('backup.operations{-,-,intact}')).toBe(1);
    const series = [...values.keys()].filter((key) => key.startsWith('backup.operations{'));
    expect(series.sort()).toEqual(['backup.operations{-,-,intact}', 'backup.operations{overflow}']);
  });
});

describe('label words the worker did not write', () => {
  // A slot's labels are found through two Int32 words, their offset in the heap and their length; the test finds a
  // slot's pair by its length, 212 bytes (`["-","-","xx…x"]` with 200 x), which nothing else in the place is.
  const damaged: [string, (words: Int32Array, at: number) => void][] = [
    ['an offset past the heap', (words, at) => words.set([2 ** 30], at - 1)],
    ['a negative offset', (words, at) => words.set([-8], at - 1)],
    ['a length past the heap', (words, at) => words.set([2 ** 30], at)],
    ['a negative length', (words, at) => words.set([-212], at)],
  ];

  for (const [what, damage] of damaged) {
    it(`${what}: the slot's numbers go to the overflow series, and the read does not throw`, async ({ harness }) => {
      const stats = createBackupStats({ meterProvider: harness.provider });
      onTestFinished(() => stats.shutdown());
      const link = stats.workerLink({ workers: 1 });
      const worker = connectBackupStats(link);
      onTestFinished(() => worker.close());
      worker.backup.scope({ operation: 'x'.repeat(200) }).timedIncrementBytes(10, 1);
      worker.backup.scope({ operation: 'intact' }).timedIncrementBytes(3, 1);
      const words = new Int32Array((link as unknown as { memory: SharedArrayBuffer }).memory);
      const found = [...words.keys()].filter((i) => words[i] === 212);
      expect(found).toHaveLength(1);
      damage(words, found[0] as number);
      expect(() => stats.flush()).not.toThrow();
      const values = valuesByKey(await harness.collect());
      expect(values.get('backup.bytes{overflow}')).toBe(10);
      expect(values.get('backup.bytes{-,-,intact}')).toBe(3);
    });
  }
});
