// A connection gives its place back when its thread exits, through a process 'exit' listener. Many connections in
// one thread (a worker connecting to several stats, or again and again) share one listener: a listener each made
// Node warn of a leak (MaxListenersExceededWarning) at the eleventh.
import { createBackupStats } from 'backupstats';
import { connectBackupStats } from 'backupstats/worker';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';

describe("the connections' exit listener", () => {
  it('is one for every connection of the thread, gone once the last one closes; no leak warning at 12', async () => {
    const stats = createBackupStats();
    onTestFinished(() => stats.shutdown());
    const link = stats.workerLink({ workers: 16 });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    onTestFinished(() => {
      process.off('warning', onWarning);
    });
    const before = process.listenerCount('exit');
    const connections = Array.from({ length: 12 }, () => connectBackupStats(link));
    onTestFinished(() => {
      for (const connection of connections) connection.close();
    });
    expect(process.listenerCount('exit')).toBe(before + 1);
    for (const connection of connections.slice(0, 11)) connection.close();
    expect(process.listenerCount('exit')).toBe(before + 1);
    connections[11]?.close();
    expect(process.listenerCount('exit')).toBe(before);
    // Node emits its warning on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });
});
