// Connecting a worker: before the stats have a provider, through stats that record nothing, with a wrong link; the
// worker's bound on scopes and its overflow series; invalid measurements; runs; the stream meters in a worker.
import { metrics } from '@opentelemetry/api';
import { createBackupStats } from 'backupstats';
import { noopStats } from 'backupstats/testing';
import { connectBackupStats } from 'backupstats/worker';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { createHarness, valuesByKey } from '../support/harness.js';
import { statsWithHistograms } from '../support/histogram-stats.js';
import { startRecordingWorker } from '../support/workers.js';

describe('connecting worker threads', () => {
  it('a worker that connects before the stats have a provider: its records wait, then go to the provider', async () => {
    const stats = createBackupStats();
    onTestFinished(() => stats.shutdown());
    const worker = await startRecordingWorker(stats.workerLink());
    await worker.run({ kind: 'loop', count: 1000, ms: 2, bytes: 5, labels: { operation: 'early' } });
    stats.flush();
    const harness = createHarness();
    onTestFinished(async () => {
      metrics.disable();
      await harness.shutdown();
    });
    expect(metrics.setGlobalMeterProvider(harness.provider)).toBe(true);
    await worker.run({ kind: 'loop', count: 10, ms: 2, bytes: 5, labels: { operation: 'early' } });
    // The first flush that finds the provider binds the stats (the timer's would, a second later).
    stats.flush();
    const values = valuesByKey(await harness.collect());
    expect(values.get('backup.operations{-,-,early}')).toBe(1010);
    expect(values.get('backup.bytes{-,-,early}')).toBe(5050);
    expect(values.get('backup.time{-,-,early}')).toBeCloseTo(2.02, 9);
  });

  it('past its maxScopes a worker records into the overflow series; invalid measurements are counted', async () => {
    const { stats, collect } = statsWithHistograms();
    const worker = await startRecordingWorker(stats.workerLink({ maxScopes: 10 }));
    // Slot 0 is the overflow series and slot 1 the root: 8 operations get series of their own.
    await worker.run({ kind: 'scopes', count: 20 });
    await worker.run({ kind: 'invalid', count: 3 });
    const exported = await collect();
    expect(exported.values.get('backup.operations{-,-,op-7}')).toBe(1);
    expect(exported.values.get('backup.operations{-,-,op-8}')).toBeUndefined();
    expect(exported.values.get('backup.operations{overflow}')).toBe(12);
    expect(exported.values.get('backupstats.invalid_measurements{backup}')).toBe(3);
  });

  it("a worker's series past the main thread's maxScopes go to the main thread's overflow series", async () => {
    const { stats, collect } = statsWithHistograms({ maxScopes: 5 });
    const worker = await startRecordingWorker(stats.workerLink());
    await worker.run({ kind: 'scopes', count: 20 });
    const exported = await collect();
    expect(exported.values.get('backup.operations{-,-,op-2}')).toBe(1);
    expect(exported.values.get('backup.operations{overflow}')).toBe(17);
    // The root, which holds no numbers, takes the fourth place.
    expect(exported.values.get('backupstats.scopes{backup}')).toBe(3);
  });

  it('runs record nothing in a worker; the stream meters record on its handles', async () => {
    const { stats, collect } = statsWithHistograms();
    const worker = await startRecordingWorker(stats.workerLink());
    await worker.run({ kind: 'run', labels: { operation: 'Backup' } });
    await worker.run({ kind: 'stream', chunks: 40, size: 1000 });
    const exported = await collect();
    expect(exported.values.get('backup.runs{-,-,Backup}')).toBeUndefined();
    expect(exported.values.get('backup.operations{-,-,Source:Read}')).toBe(40);
    expect(exported.values.get('backup.bytes{-,-,Source:Read}')).toBe(40_000);
    expect(exported.values.get('backup.operations{-,-,Destination:Write}')).toBe(40);
    expect(exported.values.get('backup.bytes{-,-,Destination:Write}')).toBe(40_000);
    expect(exported.histogram({ operation: 'Destination:Write' })?.count).toBe(40);
  });

  it('stats that record nothing give a link whose workers record nothing', async () => {
    const link = noopStats.workerLink({ workers: 3 });
    const worker = await startRecordingWorker(link);
    await worker.run({ kind: 'loop', count: 10, ms: 1 });
    const connected = connectBackupStats(link);
    expect(connected.backup.scope({ operation: 'x' }).timedIncrement).toBeTypeOf('function');
    connected.close();
  });

  it('a link after shutdown records nothing; a wrong link or option is refused, naming what is accepted', async () => {
    const stats = createBackupStats();
    await stats.shutdown();
    // The link's shared memory is internal (WorkerLink is opaque): a link after shutdown carries none.
    expect(stats.workerLink()).toMatchObject({ memory: undefined, places: 0 });
    expect(() => connectBackupStats({ places: 0 } as never)).toThrow(
      'backupstats: connectBackupStats link is an object (not a link); accepted: the value stats.workerLink() returned on the main thread, passed in workerData or postMessage',
    );
    expect(() => stats.workerLink({ workers: 0 })).toThrow(
      'backupstats: workerLink option workers is 0; accepted: an integer from 1 to 1024 (worker threads recording through the link at once)',
    );
    expect(() => stats.workerLink({ maxScopes: 1.5 })).toThrow('workerLink option maxScopes is 1.5; accepted');
  });
});
