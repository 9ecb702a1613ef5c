// startRun({ expectedBytes, progressOperation }) and trackRun's same options refuse what they cannot follow at the
// call, in the library's one form (the option, what it got, what it accepts), on every kind of handle.
import { createBackupStats, type Stats, trackRun } from 'backupstats';
import { createRecordingStats, noopStats } from 'backupstats/testing';
import { describe, expect, it, vi } from 'vitest';

const BYTES_ACCEPTED = `accepted: a number of bytes from 0 to ${Number.MAX_SAFE_INTEGER}, or nothing`;

describe('run options', () => {
  const stats = createBackupStats({ flushIntervalMillis: 2 ** 30 });
  const handles: [string, Stats][] = [
    ['a series handle', stats.backup.scope({ operation: 'Backup' })],
    [
      'an overflow handle',
      createBackupStats({ maxScopes: 2 }).backup.scope({ operation: 'a' }).scope({ component: 'b' }),
    ],
    ['noopStats', noopStats],
    ['a recording handle', createRecordingStats()],
  ];

  for (const [kind, handle] of handles) {
    it.each([
      [-1, '-1'],
      [Number.NaN, 'NaN'],
      [Number.POSITIVE_INFINITY, 'Infinity'],
      [2 ** 53, String(2 ** 53)],
      ['1000', '"1000"'],
    ])(`${kind}: expectedBytes %s is refused`, (value, shown) => {
      let error: unknown;
      try {
        handle.startRun({ expectedBytes: value as number });
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toEqual(new TypeError(`backupstats: startRun option expectedBytes is ${shown}; ${BYTES_ACCEPTED}`));
      expect((error as { code?: string }).code).toBe('BACKUPSTATS_INVALID_OPTION');
    });
  }

  it.each([
    ['', '""'],
    [42, '42'],
    ['x'.repeat(65), `"${'x'.repeat(65)}"`],
  ])('progressOperation %s is refused', (value, shown) => {
    expect(() => stats.backup.startRun({ expectedBytes: 1, progressOperation: value as string })).toThrow(
      new TypeError(
        `backupstats: startRun option progressOperation is ${shown}; accepted: an operation such as "Source:Read"`,
      ),
    );
  });

  it('options that are not an object are refused', () => {
    expect(() => stats.backup.startRun(5 as never)).toThrow(
      new TypeError(
        'backupstats: startRun options is 5; accepted: an object such as { expectedBytes: 1_048_576 }, or nothing',
      ),
    );
  });

  it('0, a fraction and the largest safe integer are taken; so is nothing', () => {
    for (const expectedBytes of [0, 0.5, Number.MAX_SAFE_INTEGER, undefined]) {
      expect(() => stats.backup.startRun({ expectedBytes }).fail()).not.toThrow();
    }
    expect(() => stats.backup.startRun({}).fail()).not.toThrow();
  });

  it('trackRun refuses a bad expectedBytes at the call, before the work runs', () => {
    const work = vi.fn(() => 1);
    expect(() => trackRun(createRecordingStats(), work, { expectedBytes: -5 })).toThrow(
      new TypeError(`backupstats: trackRun option expectedBytes is -5; ${BYTES_ACCEPTED}`),
    );
    expect(work).not.toHaveBeenCalled();
  });
});
