// startRun() in a worker records nothing (runs are the main thread's), but checks its options as the main thread's
// handles do (test/validation/run-options.test.ts), so that a wrong option fails the same way wherever the code runs:
// a worker's series handle, a scope of it, and its overflow handle past maxScopes.
import { createBackupStats, type Stats } from 'backupstats';
import { connectBackupStats } from 'backupstats/worker';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';

const BYTES_ACCEPTED = `accepted: a number of bytes from 0 to ${Number.MAX_SAFE_INTEGER}, or nothing`;

/** A worker's handles on this thread: the root, a scope and one past its two slots (the overflow). */
function workerHandles(): [string, Stats][] {
  const stats = createBackupStats();
  onTestFinished(() => stats.shutdown());
  const worker = connectBackupStats(stats.workerLink({ workers: 1, maxScopes: 2 }));
  onTestFinished(() => worker.close());
  return [
    ["a worker's root", worker.backup],
    ["a worker's scope", worker.restore.scope({ operation: 'Restore' })],
    ["a worker's overflow handle", worker.backup.scope({ operation: 'Past' })],
  ];
}

describe("run options in a worker, checked as on the main thread's handles", () => {
  it("a bad expectedBytes, progressOperation or options value is refused with the main thread's error", () => {
    for (const [kind, handle] of workerHandles()) {
      const errors = [
        () => handle.startRun({ expectedBytes: -1 }),
        () => handle.startRun({ expectedBytes: 1, progressOperation: 42 as never }),
        () => handle.startRun(5 as never),
      ].map((start) => {
        try {
          start();
          return undefined;
        } catch (error) {
          return [String(error), (error as { code?: string }).code];
        }
      });
      expect([kind, errors]).toEqual([
        kind,
        [
          [
            `TypeError: backupstats: startRun option expectedBytes is -1; ${BYTES_ACCEPTED}`,
            'BACKUPSTATS_INVALID_OPTION',
          ],
          [
            'TypeError: backupstats: startRun option progressOperation is 42; accepted: an operation such as "Source:Read"',
            'BACKUPSTATS_INVALID_OPTION',
          ],
          [
            'TypeError: backupstats: startRun options is 5; accepted: an object such as { expectedBytes: 1_048_576 }, or nothing',
            'BACKUPSTATS_INVALID_OPTION',
          ],
        ],
      ]);
    }
  });

  it('good options give a run that records nothing and can be ended', () => {
    for (const [, handle] of workerHandles()) {
      expect(() => handle.startRun({ expectedBytes: 10, progressOperation: 'Source:Read' }).succeed(10)).not.toThrow();
      expect(() => handle.startRun().fail()).not.toThrow();
    }
  });
});
