// Where a misuse is reported: through OpenTelemetry's diag logger when one is set, quiet or not; on stderr, one line,
// when none is set (the API's default), unless the stats are `quiet`. A worker's stats (connectBackupStats) have no
// `quiet`: without a logger in the worker's thread they say it on stderr. Each kind once per stats instance, from its
// first occurrence on.
import { diag } from '@opentelemetry/api';
import { createBackupStats, type Stats } from 'backupstats';
import { connectBackupStats } from 'backupstats/worker';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { captureDiag } from '../support/diag-capture.js';

const INVALID =
  'backupstats: dropped an invalid backup measurement (bytes and durations must be numbers from 0 to ' +
  'Number.MAX_SAFE_INTEGER, and so must their sum pending until the next flush; a weight, a whole number from 0 ' +
  'to 65,536); ' +
  'further ones are counted in backupstats.invalid_measurements without a message';
const WORKER_RUN =
  'backupstats: startRun() in a worker thread records nothing: a run is the whole job, recorded on the main thread ' +
  '(start it on the stats that made the link); records of operations work in the worker';

/** No diag logger (the API's default), and what is written to stderr, kept instead of written. */
function stderrWithoutLogger(): string[] {
  diag.disable();
  const written: string[] = [];
  const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    written.push(String(chunk));
    return true;
  });
  onTestFinished(() => write.mockRestore());
  return written;
}

/** Stats shut down when the test ends. */
function stats(options?: Parameters<typeof createBackupStats>[0]) {
  const made = createBackupStats(options);
  onTestFinished(() => made.shutdown());
  return made;
}

describe('a misuse with no diag logger set', () => {
  it('is written to stderr, one line, once per kind of each instance', () => {
    const written = stderrWithoutLogger();
    const first = stats();
    first.backup.timedIncrement(Number.NaN);
    first.backup.scope({ operation: 'x' }).timedIncrement(-1);
    expect(written).toEqual([`${INVALID}\n`]);
    // Another instance says it once too.
    stats().backup.timedIncrement(Number.POSITIVE_INFINITY);
    expect(written).toEqual([`${INVALID}\n`, `${INVALID}\n`]);
  });

  it('is not written when the stats are quiet', () => {
    const written = stderrWithoutLogger();
    const quiet = stats({ quiet: true });
    quiet.backup.timedIncrement(Number.NaN);
    (quiet.restore as Stats).scope({ opration: 'x' } as never);
    expect(written).toEqual([]);
  });

  it("by a worker's stats, which have no quiet: written to stderr, from the first one on", () => {
    const written = stderrWithoutLogger();
    const worker = connectBackupStats(stats({ quiet: true }).workerLink());
    onTestFinished(() => worker.close());
    worker.backup.startRun().succeed();
    expect(written).toEqual([`${WORKER_RUN}\n`]);
    worker.restore.startRun().fail();
    worker.backup.timedIncrement(Number.NaN);
    expect(written).toEqual([`${WORKER_RUN}\n`, `${INVALID}\n`]);
  });
});

describe('a misuse with a diag logger set', () => {
  it.for([false, true])('goes to the logger and not to stderr (quiet: %s)', (quiet) => {
    const written = stderrWithoutLogger();
    const logged = captureDiag();
    onTestFinished(() => logged.restore());
    stats({ quiet }).backup.timedIncrement(Number.NaN);
    expect(logged.messages).toEqual([INVALID]);
    expect(written).toEqual([]);
  });
});
