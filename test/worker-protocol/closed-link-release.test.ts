// The closed mark of a link is a word of its own: a worker that gives its place back after the stats shut down (its
// close(), its thread's exit) changes its place's state, not the mark, so a worker connecting later is still told
// that the stats shut down and takes no place. In process, on a link of the default 128 places and of 4.
import { describe, expect, onTestFinished, vi } from 'vitest';
import { it } from '../support/fixtures.js';

// The warning is reported once per thread, in module state: a fresh copy of the library for this file, whatever else
// ran before it in this worker.
vi.resetModules();
const { createBackupStats } = await import('backupstats');
const { connectBackupStats } = await import('backupstats/worker');

const SAID =
  'backupstats: connectBackupStats got the link of stats that were shut down; what this worker records is ignored\n';

describe('a link whose stats shut down', () => {
  it('stays closed when a worker gives its place back after the shutdown', async () => {
    const stats = createBackupStats();
    const links = [stats.workerLink(), stats.workerLink({ workers: 4 })];
    const owners = links.map((link) => connectBackupStats(link));
    await stats.shutdown();
    for (const owner of owners) owner.close();
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    onTestFinished(() => stderr.mockRestore());
    const listeners = process.listenerCount('exit');
    const late = links.map((link) => connectBackupStats(link));
    onTestFinished(() => {
      for (const worker of late) worker.close();
    });
    expect(process.listenerCount('exit')).toBe(listeners);
    expect(stderr.mock.calls).toEqual([[SAID]]);
  });
});
