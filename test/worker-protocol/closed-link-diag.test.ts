// A worker that connects after the stats shut down, on a thread with a diag logger: the sentence goes to the logger,
// once, and nothing to stderr (closed-link.test.ts: without a logger).
import { expect, it, onTestFinished, vi } from 'vitest';
import { captureDiag } from '../support/diag-capture.js';

// The warning is reported once per thread, in module state: a fresh copy of the library for this file, whatever else
// ran before it in this worker.
vi.resetModules();
const { createBackupStats } = await import('backupstats');
const { connectBackupStats } = await import('backupstats/worker');

it('a late connection is reported once through the diag logger, not on stderr', async () => {
  const stats = createBackupStats();
  const link = stats.workerLink();
  await stats.shutdown();
  const logged = captureDiag();
  onTestFinished(() => logged.restore());
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  onTestFinished(() => stderr.mockRestore());
  connectBackupStats(link).close();
  connectBackupStats(link).close();
  expect(stderr).not.toHaveBeenCalled();
  expect(logged.messages).toEqual([
    'backupstats: connectBackupStats got the link of stats that were shut down; what this worker records is ignored',
  ]);
});
