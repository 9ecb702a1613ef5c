import { type BackupStatsOptions, createBackupStats } from 'backupstats';
import { describe, expect, onTestFinished } from 'vitest';
import { expectDocumentedCode } from '../support/error-codes.js';
import { it } from '../support/fixtures.js';
import { points, valuesByKey } from '../support/harness.js';

type Case = readonly [string, Record<string, unknown>, readonly string[]];

const CASES: readonly Case[] = [
  ['negative interval', { flushIntervalMillis: -1 }, ['flushIntervalMillis', '-1', 'integer from 0']],
  ['fractional interval', { flushIntervalMillis: 1.5 }, ['flushIntervalMillis', '1.5']],
  [
    'interval beyond setInterval',
    { flushIntervalMillis: 2 ** 31 },
    ['flushIntervalMillis', '2147483648', '2147483647'],
  ],
  ['interval as text', { flushIntervalMillis: '1000' }, ['flushIntervalMillis', '"1000"']],
  ['NaN interval', { flushIntervalMillis: Number.NaN }, ['flushIntervalMillis', 'NaN']],
  ['unknown naming', { naming: 'prometheus' }, ['naming', '"prometheus"', '"otel" or "vitess"']],
  ['zero maxScopes', { maxScopes: 0 }, ['maxScopes', '0', 'integer of 2 or more']],
  ['maxScopes of 1', { maxScopes: 1 }, ['maxScopes', '1', 'integer of 2 or more']],
  ['infinite maxScopes', { maxScopes: Number.POSITIVE_INFINITY }, ['maxScopes', 'Infinity']],
  ['prefix not a string', { metricPrefix: 5 }, ['metricPrefix', '5', 'a string']],
  ['quiet not a boolean', { quiet: 'yes' }, ['option quiet', '"yes"', 'true or false']],
  ['prefix making invalid names', { metricPrefix: 'my job ' }, ['metricPrefix', '"my job "', 'my job backup']],
  ['prefix starting with a digit', { metricPrefix: '1_' }, ['metricPrefix', '"1_"']],
  // 230 characters keep the counters' names within 255, not the longest run instrument's.
  [
    'prefix too long for the run names',
    { metricPrefix: 'p'.repeat(230) },
    ['metricPrefix', `${'p'.repeat(230)}backup.last_success.timestamp" is not`],
  ],
  // 224 characters keep the progress gauges' names within 255, not the stored bytes gauge's (as long as the
  // longest self-metric's name).
  [
    'prefix too long for the stored bytes gauge',
    { metricPrefix: 'p'.repeat(224) },
    ['metricPrefix', `${'p'.repeat(224)}backup.last_success.stored_bytes" is not`],
  ],
  // restore.last_success.stored_bytes is one character longer than every other family's.
  [
    'prefix too long for the restore names only, in otel naming',
    { metricPrefix: 'p'.repeat(223) },
    ['metricPrefix', `${'p'.repeat(223)}restore.last_success.stored_bytes" is not`],
  ],
  // The restore instruments' names are one character longer than the backup ones: only they are too long here.
  [
    'prefix too long for the restore names only',
    { naming: 'vitess', metricPrefix: 'p'.repeat(217) },
    ['metricPrefix', `${'p'.repeat(217)}restore_last_progress_timestamp_seconds" is not`],
  ],
  ['meterProvider not a provider', { meterProvider: {} }, ['option meterProvider is an object;', 'getMeter']],
  ['meterProvider null', { meterProvider: null }, ['meterProvider', 'is null;', 'getMeter']],
  ['meterProvider as text', { meterProvider: 'otel' }, ['meterProvider', '"otel"', 'getMeter']],
  [
    'meterProvider a function',
    { meterProvider: Object.assign(() => {}, { getMeter: () => {} }) },
    ['meterProvider', 'a value of type function'],
  ],
  ['interval as a boolean', { flushIntervalMillis: true }, ['flushIntervalMillis', 'is true;']],
  ['interval as a bigint', { flushIntervalMillis: 1000n }, ['flushIntervalMillis', 'is 1000;']],
  ['naming null', { naming: null }, ['naming', 'is null;']],
];

describe('bad options throw at construction with the option, the value and what is accepted', () => {
  it.each(CASES)('%s', (_name, options, fragments) => {
    const create = () => createBackupStats(options as BackupStatsOptions);
    expect(create).toThrow(TypeError);
    let message = '';
    try {
      create();
    } catch (error) {
      message = (error as Error).message;
      expectDocumentedCode(error, 'BACKUPSTATS_INVALID_OPTION');
    }
    expect(message).toMatch(/^backupstats: option \w+ is .+; accepted: ./);
    for (const fragment of fragments) expect(message).toContain(fragment);
  });

  it('the whole message of each integer option: its range and what the number counts', () => {
    expect(() => createBackupStats({ flushIntervalMillis: -1 })).toThrow(
      new TypeError(
        'backupstats: option flushIntervalMillis is -1; accepted: an integer from 0 to 2147483647 (milliseconds; 0 records straight into the instruments)',
      ),
    );
    expect(() => createBackupStats({ maxScopes: 1 })).toThrow(
      new TypeError(
        'backupstats: option maxScopes is 1; accepted: an integer of 2 or more (the series of the root scope and the overflow series)',
      ),
    );
  });

  it('accepts the limits themselves', async () => {
    for (const options of [{ flushIntervalMillis: 0 }, { flushIntervalMillis: 2 ** 31 - 1 }, { maxScopes: 2 }]) {
      const stats = createBackupStats(options);
      await expect(stats.shutdown()).resolves.toBeUndefined();
    }
  });

  it('rejects options that are not an object', () => {
    expect(() => createBackupStats(null as unknown as BackupStatsOptions)).toThrow(
      /^backupstats: createBackupStats options is null; accepted: an object such as \{ naming: 'vitess' \}, or nothing$/,
    );
    expect(() => createBackupStats('fast' as unknown as BackupStatsOptions)).toThrow(
      /^backupstats: createBackupStats options is "fast"; accepted: an object/,
    );
  });
});

describe('the smallest maxScopes', () => {
  it('2 keeps the root series and the overflow series: every other scope records into the one overflow series', async ({
    harness,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, maxScopes: 2 });
    onTestFinished(() => stats.shutdown());
    stats.backup.timedIncrementBytes(1, 1);
    stats.backup.scope({ component: 'BackupEngine' }).timedIncrementBytes(10, 1);
    stats.backup.scope({ component: 'BackupStorage', operation: 'File:Write' }).timedIncrementBytes(100, 1);
    const exported = await harness.collect();

    const values = valuesByKey(exported);
    expect(values.get('backupstats.scopes{backup}')).toBe(1);
    expect(values.get('backup.bytes{-,-,-}')).toBe(1);
    expect(values.get('backup.bytes{overflow}')).toBe(110);
    expect(values.get('backup.operations{overflow}')).toBe(2);
    const bytes = points(exported).filter((p) => p.name === 'backup.bytes');
    expect(bytes.map((p) => p.attributes)).toEqual([
      { component: '-', implementation: '-', operation: '-' },
      { 'otel.metric.overflow': true },
    ]);
  });
});
