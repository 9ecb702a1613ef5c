// shutdown() called twice, and a flush interrupted by an instrument that throws: no measurement is lost and
// none is added twice.
import { createBackupStats } from 'backupstats';
import { describe, expect } from 'vitest';
import { type AddCall, createCountingProvider } from '../support/counting-provider.js';
import { it } from '../support/fixtures.js';
import { valuesByKey } from '../support/harness.js';

// The never-observed instrument the collection hook's batch callback is registered with.
const SCOPES = 'backupstats.collection';

describe('shutdown() twice', () => {
  it('flushes and detaches from the Meter once; the second call resolves and does nothing', async ({ harness }) => {
    const counting = createCountingProvider(harness.provider);
    const stats = createBackupStats({ meterProvider: counting.provider });
    // The series' first record goes to the instruments at once (its start); the second waits for the flush.
    stats.backup.timedIncrementBytes(3, 1);
    stats.backup.timedIncrementBytes(3, 1);
    expect(counting.adds).toHaveLength(3);
    await expect(stats.shutdown()).resolves.toBeUndefined();
    expect(counting.removedCallbacks(SCOPES)).toBe(1);
    expect(counting.adds).toHaveLength(6);

    stats.backup.timedIncrementBytes(3, 1);
    await expect(stats.shutdown()).resolves.toBeUndefined();
    expect(counting.removedCallbacks(SCOPES)).toBe(1);
    expect(counting.adds).toHaveLength(6);
  });

  it('stats sharing a provider share one collection callback, removed when the last one shuts down', async ({
    harness,
  }) => {
    const counting = createCountingProvider(harness.provider);
    const first = createBackupStats({ meterProvider: counting.provider });
    const second = createBackupStats({ meterProvider: counting.provider });
    expect(counting.addedCallbacks(SCOPES)).toBe(1);
    await first.shutdown();
    expect(counting.removedCallbacks(SCOPES)).toBe(0);
    await second.shutdown();
    expect(counting.removedCallbacks(SCOPES)).toBe(1);
    const third = createBackupStats({ meterProvider: counting.provider });
    expect(counting.addedCallbacks(SCOPES)).toBe(2);
    await third.shutdown();
  });

  it('with an instrument that throws: rejects with its error, says what was lost, and does not blame a missing provider', async ({
    harness,
    diagnostics,
  }) => {
    const counting = createCountingProvider(harness.provider);
    const stats = createBackupStats({ meterProvider: counting.provider });
    // The first record starts the series at once; the second waits for the shutdown's flush.
    stats.backup.timedIncrement(1);
    stats.backup.timedIncrement(1);
    const failure = new Error('instrument gone');
    counting.failAdd('backup.operations', 1, failure);
    await expect(stats.shutdown()).rejects.toBe(failure);
    expect(diagnostics.messages).toEqual([
      'backupstats: shutdown() could not add the pending backup measurements of 1 scope(s) to the OpenTelemetry instruments; they are lost Error: instrument gone',
    ]);
  });
});

/**
 * Records once on each handle and flushes, then forgets those adds: a series' first record goes to the
 * instruments at once (so that its points start there), and the tests below are about the records after it.
 */
function started(
  stats: ReturnType<typeof createBackupStats>,
  counting: ReturnType<typeof createCountingProvider>,
  handles: readonly { timedIncrement(ms: number, weight?: number): void }[],
): void {
  for (const handle of handles) handle.timedIncrement(0, 0);
  stats.flush();
  counting.clearAdds();
}

describe('a flush interrupted by an instrument that throws', () => {
  // Whether flush() rethrows the instrument's error is not pinned here; what must hold is that nothing
  // recorded is lost and nothing is added twice once a later flush gets through.
  const attempt = (flush: () => void): void => {
    try {
      flush();
    } catch {
      // The instrument's error, or none.
    }
  };

  it('flushes on retry the handles not flushed yet, and the others not again', async ({ harness }) => {
    const counting = createCountingProvider(harness.provider);
    const stats = createBackupStats({ meterProvider: counting.provider, flushIntervalMillis: 2 ** 31 - 1 });
    const handles = ['Source:Read', 'Compressor:Write', 'Destination:Write'].map((operation) =>
      stats.backup.scope({ operation }),
    );
    started(stats, counting, handles);
    handles.forEach((handle, i) => {
      for (let n = 0; n <= i; n++) handle.timedIncrementBytes(100 * (i + 1), 1);
    });
    // The second handle's first add throws: the first handle is through, the second and third are not.
    counting.failAdd('backup.operations', 2, new Error('transient'));
    attempt(() => stats.flush());
    const afterFailure = counting.adds.length;
    attempt(() => stats.flush());

    // Each instrument got each handle's numbers in exactly one add, across the failed flush and the retry.
    const key = (a: AddCall): string => `${a.instrument}{${String(a.attributes?.operation)}}`;
    const keys = counting.adds.map(key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.sort()).toEqual(
      ['backup.bytes', 'backup.operations', 'backup.time'].flatMap((i) => [
        `${i}{Compressor:Write}`,
        `${i}{Destination:Write}`,
        `${i}{Source:Read}`,
      ]),
    );
    expect(afterFailure).toBeLessThan(counting.adds.length);

    // One operation more each: the one that started the series.
    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.operations{-,-,Source:Read}')).toBe(2);
    expect(values.get('backup.bytes{-,-,Source:Read}')).toBe(100);
    expect(values.get('backup.operations{-,-,Compressor:Write}')).toBe(3);
    expect(values.get('backup.bytes{-,-,Compressor:Write}')).toBe(400);
    expect(values.get('backup.operations{-,-,Destination:Write}')).toBe(4);
    expect(values.get('backup.bytes{-,-,Destination:Write}')).toBe(900);
    expect(values.get('backup.time{-,-,Destination:Write}')).toBeCloseTo(0.003, 12);
    await stats.shutdown();
  });

  it('an instrument that throws after another took its number: the retry adds only what is still pending', async ({
    harness,
  }) => {
    const counting = createCountingProvider(harness.provider);
    const stats = createBackupStats({ meterProvider: counting.provider, flushIntervalMillis: 2 ** 31 - 1 });
    const handle = stats.backup.scope({ operation: 'Destination:Write' });
    started(stats, counting, [handle]);
    handle.timedIncrementBytes(8, 2);
    counting.failAdd('backup.bytes', 1, new Error('transient'));
    attempt(() => stats.flush());
    attempt(() => stats.flush());
    // The operations went out with the failed flush: the retry does not add them again, not even as 0.
    expect(counting.adds.map((a) => [a.instrument, a.value])).toEqual([
      ['backup.operations', 1],
      ['backup.bytes', 8],
      ['backup.time', 0.002],
    ]);
    await stats.shutdown();
  });

  it('unthrottled: after a refused add, later records wait with it, and the next flush adds them in one add', async ({
    harness,
  }) => {
    const counting = createCountingProvider(harness.provider);
    const stats = createBackupStats({ meterProvider: counting.provider, flushIntervalMillis: 0 });
    const handle = stats.backup.scope({ operation: 'Source:Read' });
    counting.failAdd('backup.operations', 1, new Error('transient'));
    handle.timedIncrementBytes(3, 1);
    handle.timedIncrementBytes(4, 1);
    expect(counting.adds).toEqual([]);
    stats.flush();
    expect(counting.adds.map((a) => [a.instrument, a.value])).toEqual([
      ['backup.operations', 2],
      ['backup.bytes', 7],
      ['backup.time', 0.002],
    ]);
    await stats.shutdown();
  });

  it('a handle recorded on between the failed flush and the retry is flushed once, with everything', async ({
    harness,
  }) => {
    const counting = createCountingProvider(harness.provider);
    const stats = createBackupStats({ meterProvider: counting.provider, flushIntervalMillis: 2 ** 31 - 1 });
    const handle = stats.restore.scope({ operation: 'Decompressor:Read' });
    started(stats, counting, [handle]);
    handle.timedIncrementBytes(5, 1);
    counting.failAdd('restore.operations', 1, new Error('transient'));
    attempt(() => stats.flush());
    handle.timedIncrementBytes(6, 1);
    attempt(() => stats.flush());
    expect(counting.adds.map((a) => [a.instrument, a.value])).toEqual([
      ['restore.operations', 2],
      ['restore.bytes', 11],
      ['restore.time', 0.002],
    ]);
    await stats.shutdown();
  });
});

describe('records after shutdown', () => {
  it('unthrottled: each is dropped, not kept on its handle (kept, they would add up to an invalid measurement)', async ({
    harness,
    diagnostics,
  }) => {
    const stats = createBackupStats({ meterProvider: harness.provider, flushIntervalMillis: 0 });
    await stats.shutdown();
    const handle = stats.backup.scope({ operation: 'Source:Read' });
    for (let i = 0; i < 3; i++) handle.timedIncrementBytes(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    expect(diagnostics.messages).toEqual([
      'backupstats: a backup measurement was recorded after shutdown() and is ignored, as are any later ones',
    ]);
  });
});
