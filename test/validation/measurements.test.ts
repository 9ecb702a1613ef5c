import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBackupStats, meterReadable, meterTransform, meterWritable, type Stats } from 'backupstats';
import { createRecordingStats } from 'backupstats/testing';
import { connectBackupStats } from 'backupstats/worker';
import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { valuesByKey } from '../support/harness.js';
import { statsWithHistograms } from '../support/histogram-stats.js';

const BAD_VALUES: readonly unknown[] = [
  -1,
  -0.001,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  '5',
  '',
  undefined,
  null,
  {},
  [],
  true,
  10n,
  Symbol('x'),
  new Number(5),
];

describe.each([0, 1000])('invalid measurements (flushIntervalMillis %i)', (flushIntervalMillis) => {
  it('are dropped, counted, reported once, and leave the totals untouched', async ({ harness, diagnostics }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis });
    const handle = stats.backup.scope({ operation: 'Source:Read' });
    handle.timedIncrementBytes(10, 1);
    // The public types forbid these; plain JavaScript callers and computed values can still pass them.
    const untyped = handle as unknown as {
      timedIncrement(d: unknown): void;
      timedIncrementBytes(b: unknown, d: unknown): void;
    };
    for (const bad of BAD_VALUES) {
      untyped.timedIncrementBytes(bad, 1);
      untyped.timedIncrementBytes(1, bad);
      untyped.timedIncrement(bad);
    }
    (stats.restore as Stats).timedIncrement(Number.NaN);
    handle.timedIncrementBytes(5, 2);

    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.operations{-,-,Source:Read}')).toBe(2);
    expect(values.get('backup.bytes{-,-,Source:Read}')).toBe(15);
    expect(values.get('backup.time{-,-,Source:Read}')).toBeCloseTo(0.003, 12);
    expect(values.get('backupstats.invalid_measurements{backup}')).toBe(BAD_VALUES.length * 3);
    expect(values.get('backupstats.invalid_measurements{restore}')).toBe(1);
    expect(diagnostics.messages.filter((m) => m.includes('invalid'))).toHaveLength(1);
    await stats.shutdown();
  });
});

describe.each([1000, 0])('values at the edges (flushIntervalMillis %i)', (flushIntervalMillis) => {
  it('accepts zero and exactly Number.MAX_SAFE_INTEGER bytes and milliseconds, without corrupting other series', async ({
    harness,
    diagnostics,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis });
    const max = Number.MAX_SAFE_INTEGER;
    stats.backup.scope({ operation: 'zero' }).timedIncrementBytes(0, 0);
    stats.backup.scope({ operation: 'timed' }).timedIncrement(max);
    stats.backup.scope({ operation: 'moved' }).timedIncrementBytes(max, max);
    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.operations{-,-,zero}')).toBe(1);
    expect(values.get('backup.operations{-,-,timed}')).toBe(1);
    expect(values.get('backup.time{-,-,timed}')).toBe(max / 1000);
    expect(values.get('backup.operations{-,-,moved}')).toBe(1);
    expect(values.get('backup.bytes{-,-,moved}')).toBe(max);
    expect(values.get('backup.time{-,-,moved}')).toBe(max / 1000);
    expect(values.get('backupstats.invalid_measurements{backup}')).toBe(0);
    expect(diagnostics.messages).toEqual([]);
    await stats.shutdown();
  });
});

describe.each([1000, 0])('pending sums (flushIntervalMillis %i)', (flushIntervalMillis) => {
  it('never overflow: values each finite but past the largest safe amount are dropped and counted', async ({
    harness,
    diagnostics,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis });
    const handle = stats.backup.scope({ operation: 'O' });
    handle.timedIncrement(1e308);
    handle.timedIncrement(1e308);
    stats.flush();
    handle.timedIncrement(5);
    stats.flush();
    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.operations{-,-,O}')).toBe(1);
    expect(values.get('backup.time{-,-,O}')).toBeCloseTo(0.005, 12);
    expect(values.get('backupstats.invalid_measurements{backup}')).toBe(2);
    expect(diagnostics.messages.filter((m) => m.includes('invalid'))).toHaveLength(1);
    await stats.shutdown();
  });

  it('a record that would carry its pending sum past Number.MAX_SAFE_INTEGER is dropped and counted', async ({
    harness,
    diagnostics,
  }) => {
    const stats = createBackupStats({
      meterProvider: harness.provider,
      flushIntervalMillis: flushIntervalMillis === 0 ? 0 : 2 ** 30,
    });
    const handle = stats.restore.scope({ operation: 'O' });
    // The series' first record goes to the instruments at once (its start): the sums below are pending ones.
    handle.timedIncrement(0, 0);
    stats.flush();
    const big = Number.MAX_SAFE_INTEGER - 10;
    handle.timedIncrementBytes(big, 1);
    handle.timedIncrementBytes(11, 1); // pending would be MAX_SAFE_INTEGER + 1 (unthrottled: nothing pending)
    handle.timedIncrementBytes(10, 1); // pending exactly MAX_SAFE_INTEGER
    stats.flush();
    handle.timedIncrementBytes(11, 1); // a new pending sum
    handle.timedIncrement(Number.MAX_SAFE_INTEGER);
    handle.timedIncrement(1); // duration sum past the bound
    const values = valuesByKey(await harness.collect());
    const dropped = flushIntervalMillis === 0 ? 0 : 2;
    expect(values.get('restore.operations{-,-,O}')).toBe(7 - dropped);
    expect(values.get('restore.bytes{-,-,O}')).toBe(big + (flushIntervalMillis === 0 ? 32 : 21));
    expect(Number.isFinite(values.get('restore.time{-,-,O}'))).toBe(true);
    expect(values.get('backupstats.invalid_measurements{restore}')).toBe(dropped);
    expect(diagnostics.messages.filter((m) => m.includes('invalid'))).toHaveLength(dropped > 0 ? 1 : 0);
    await stats.shutdown();
  });
});

describe('a stream chunk whose bytes a record refuses', () => {
  it('is dropped and counted by every meter, timed or not, and one past the pending bound too', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis: 2 ** 30 });
    const max = Number.MAX_SAFE_INTEGER;
    // Object-mode chunks count their byteLength: 5, three that are no amount, one that fills the pending sum to
    // exactly MAX_SAFE_INTEGER and one byte more, which would carry it past. Whichever chunk is the timed one of
    // its block (one in 65,536), the outcome is the same.
    const chunks = () =>
      [5, -1, Number.NaN, Number.POSITIVE_INFINITY, max - 5, 1].map((byteLength) => ({ byteLength }));
    const objects = (): Readable => Readable.from(chunks());
    const sink = (): Writable => new Writable({ objectMode: true, write: (_c, _e, done) => done() });
    const pass = (): Transform => new Transform({ objectMode: true, transform: (c, _e, done) => done(null, c) });
    const runs: Record<string, (s: Stats) => Promise<void>> = {
      Read: (s) => pipeline(meterReadable(objects(), s, { timeOneIn: 65_536 }), sink()),
      Transform: (s) => pipeline(objects(), meterTransform(pass(), s, { timeOneIn: 65_536 }), sink()),
      Write: (s) => pipeline(objects(), meterWritable(sink(), s, { timeOneIn: 65_536 })),
    };
    for (const [operation, run] of Object.entries(runs)) {
      const handle = stats.backup.scope({ operation });
      // The series' first record goes to the instruments at once (its start): the chunks' sums are pending ones.
      handle.timedIncrement(0, 0);
      stats.flush();
      await run(handle);
    }
    const values = valuesByKey(await harness.collect());
    for (const operation of Object.keys(runs)) {
      expect(values.get(`backup.operations{-,-,${operation}}`), operation).toBe(3);
      expect(values.get(`backup.bytes{-,-,${operation}}`), operation).toBe(max);
    }
    expect(values.get('backupstats.invalid_measurements{backup}')).toBe(12);
    await stats.shutdown();
  });
});

describe('a weight that is not a whole number of operations, such as 1.5', () => {
  it('is dropped and counted, on the main thread, on a worker link and by the recording double', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    const handle = stats.backup.scope({ operation: 'Source:Read' });
    const worker = connectBackupStats(stats.workerLink());
    const shared = worker.backup.scope({ operation: 'Compressor:Write' });
    for (const weight of [1.5, 0.25, -1, Number.NaN]) {
      handle.timedIncrement(5, weight);
      handle.timedIncrementBytes(10, 5, weight);
      shared.timedIncrement(5, weight);
      shared.timedIncrementBytes(10, 5, weight);
    }
    handle.timedIncrementBytes(10, 5, 16);
    shared.timedIncrementBytes(10, 5, 0);
    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.operations{-,-,Source:Read}')).toBe(1);
    expect(values.get('backup.time{-,-,Source:Read}')).toBeCloseTo(0.08, 12);
    expect(values.get('backup.operations{-,-,Compressor:Write}')).toBe(1);
    expect(values.get('backupstats.invalid_measurements{backup}')).toBe(16);
    worker.close();
    await stats.shutdown();

    const recording = createRecordingStats();
    recording.timedIncrement(5, 1.5);
    recording.timedIncrement(5, 2);
    expect(recording.dropped.map((call) => call.weight)).toEqual([1.5]);
    expect(recording.calls.map((call) => call.weight)).toEqual([2]);
  });
});

describe('a weight above 65,536, the largest block timing by budget or timeOneIn samples', () => {
  it('is dropped and counted on the main thread and on a worker link, and 65,536 is kept', async ({ diagnostics }) => {
    const { stats, collect } = statsWithHistograms();
    const worker = connectBackupStats(stats.workerLink());
    const main = stats.backup.scope({ operation: 'main' });
    const shared = worker.backup.scope({ operation: 'shared' });
    for (const handle of [main, shared]) {
      handle.timedIncrement(0, 1e300);
      handle.timedIncrement(0.001, 2 ** 60);
      handle.timedIncrementBytes(5, 0.001, 65_537);
      handle.timedIncrement(1);
      handle.timedIncrementBytes(7, 0.5, 65_536);
    }
    const exported = await collect();
    for (const operation of ['main', 'shared']) {
      expect(exported.values.get(`backup.operations{-,-,${operation}}`)).toBe(2);
      expect(exported.values.get(`backup.bytes{-,-,${operation}}`)).toBe(7);
      expect(exported.values.get(`backup.time{-,-,${operation}}`)).toBeCloseTo(0.001 + 0.5 * 65.536, 9);
      expect(exported.histogram({ operation })?.count).toBe(65_537);
    }
    expect(exported.values.get('backupstats.invalid_measurements{backup}')).toBe(6);
    // Once by each side: the worker says it in its own thread, here the same one.
    expect(diagnostics.messages.filter((m) => m.includes('invalid'))).toHaveLength(2);
    worker.close();
  });
});
