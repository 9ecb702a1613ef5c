// A worker that connects through a link after the stats that made it shut down, in process: the link is marked
// closed at the shutdown, so the connection takes no place (however many there are, taken or not), keeps no exit
// listener, records nothing, and warns once per thread on stderr, since the thread has no diag logger
// (closed-link-diag.test.ts: with one).
import { describe, expect, onTestFinished, vi } from 'vitest';
import { it } from '../support/fixtures.js';
import { valuesByKey } from '../support/harness.js';

// The warning is reported once per thread, in module state: a fresh copy of the library for this file, whatever else
// ran before it in this worker.
vi.resetModules();
const { createBackupStats } = await import('backupstats');
const { connectBackupStats } = await import('backupstats/worker');

const SAID =
  'backupstats: connectBackupStats got the link of stats that were shut down; what this worker records is ignored\n';

describe('a worker connecting after the stats shut down', () => {
  it('takes no place, not even a taken one, records nothing, and is reported once on stderr', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    const link = stats.workerLink({ workers: 1 });
    // The only place, taken before the shutdown and never given back.
    const owner = connectBackupStats(link);
    onTestFinished(() => owner.close());
    owner.backup.scope({ operation: 'Before' }).timedIncrementBytes(5, 1);
    await stats.shutdown();
    // What the owner recorded before the shutdown was read by it.
    expect(valuesByKey(await harness.collect()).get('backup.bytes{-,-,Before}')).toBe(5);

    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    onTestFinished(() => stderr.mockRestore());
    const listeners = process.listenerCount('exit');
    const late = [connectBackupStats(link), connectBackupStats(link), connectBackupStats(structuredClone(link))];
    expect(process.listenerCount('exit')).toBe(listeners);
    expect(stderr.mock.calls).toEqual([[SAID]]);
    for (const worker of late) {
      expect(Object.isFrozen(worker)).toBe(true);
      worker.backup.scope({ operation: 'After' }).timedIncrementBytes(7, 1);
      worker.restore.timedIncrement(1);
      worker.close();
    }
    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.bytes{-,-,After}')).toBeUndefined();
    expect(values.get('backup.bytes{-,-,Before}')).toBe(5);
  });

  it('a link made before the shutdown and never connected is closed too', async () => {
    const stats = createBackupStats();
    const links = [stats.workerLink({ workers: 2 }), stats.workerLink({ workers: 3, maxScopes: 8 })];
    await stats.shutdown();
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    onTestFinished(() => stderr.mockRestore());
    const listeners = process.listenerCount('exit');
    // More connections than places, all kept open: none takes a place, none is refused.
    const workers = links.flatMap((link) => Array.from({ length: 4 }, () => connectBackupStats(link)));
    expect(process.listenerCount('exit')).toBe(listeners);
    for (const worker of workers) worker.close();
  });

  it('a link of stats still running is not closed: its place is taken and recorded into', async ({ harness }) => {
    const stats = createBackupStats({ meterProvider: harness.provider });
    onTestFinished(() => stats.shutdown());
    const link = stats.workerLink({ workers: 1 });
    const listeners = process.listenerCount('exit');
    const worker = connectBackupStats(link);
    onTestFinished(() => worker.close());
    expect(process.listenerCount('exit')).toBe(listeners + 1);
    worker.backup.timedIncrementBytes(3, 1);
    expect(valuesByKey(await harness.collect()).get('backup.bytes{-,-,-}')).toBe(3);
  });
});
