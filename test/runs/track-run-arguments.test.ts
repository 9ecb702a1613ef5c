// trackRun refuses at the call, before the work runs, what it cannot track: each error whole, in the library's one
// form (the function, the argument, what it got, what it accepts).
import { RunFailure, type Stats, trackRun } from 'backupstats';
import { createRecordingStats } from 'backupstats/testing';
import { describe, expect, it, vi } from 'vitest';

const STATS_ACCEPTED = 'accepted: a Stats, such as backupStats.backup or one of its scopes';

/** A Stats' four methods, as an object of its own, with one of them left out. */
function statsWithout(method: keyof Stats): object {
  const stats = createRecordingStats();
  const methods: Record<string, unknown> = {
    scope: stats.scope,
    timedIncrement: stats.timedIncrement,
    timedIncrementBytes: stats.timedIncrementBytes,
    startRun: stats.startRun,
  };
  delete methods[method];
  return methods;
}

describe('trackRun arguments', () => {
  it.each(['scope', 'timedIncrement', 'timedIncrementBytes', 'startRun'] as const)(
    'stats without %s() is not a Stats',
    (method) => {
      const work = vi.fn(() => 1);
      expect(() => trackRun(statsWithout(method) as Stats, work)).toThrow(
        new TypeError(`backupstats: trackRun stats is an object; ${STATS_ACCEPTED}`),
      );
      expect(work).not.toHaveBeenCalled();
    },
  );

  it('stats with all four methods are taken, whatever object holds them', async () => {
    const stats = createRecordingStats();
    const { scope, timedIncrement, timedIncrementBytes, startRun } = stats;
    await expect(trackRun({ scope, timedIncrement, timedIncrementBytes, startRun }, () => 5)).resolves.toBe(5);
    expect(stats.runs.map((run) => run.outcome)).toEqual(['success']);
  });

  it('work that is not a function', () => {
    expect(() => trackRun(createRecordingStats(), 'backup' as never)).toThrow(
      new TypeError('backupstats: trackRun work is "backup"; accepted: a function'),
    );
  });

  it.each([
    ['a number', 5, '5'],
    ['a function', () => 5, 'a function'],
    ['an array', [], 'an instance of Array'],
  ])('options that are %s', (_case, options, shown) => {
    const work = vi.fn(() => 1);
    expect(() => trackRun(createRecordingStats(), work, options as never)).toThrow(
      new TypeError(
        `backupstats: trackRun options is ${shown}; accepted: an object such as { bytes: (result) => result.bytes }, or nothing`,
      ),
    );
    expect(work).not.toHaveBeenCalled();
  });

  it('a reason option that is not a function, before the work runs rather than when it fails', () => {
    const work = vi.fn(() => 1);
    expect(() => trackRun(createRecordingStats(), work, { reason: RunFailure.Source as never })).toThrow(
      new TypeError('backupstats: trackRun option reason is "source"; accepted: a function'),
    );
    expect(work).not.toHaveBeenCalled();
  });

  it('a reason option left undefined is a failure of reason _OTHER', async () => {
    const stats = createRecordingStats();
    await expect(trackRun(stats, () => Promise.reject(new Error('x')), { reason: undefined })).rejects.toThrow('x');
    expect(stats.runs.map((run) => [run.outcome, run.reason])).toEqual([['failure', RunFailure.Other]]);
  });
});
