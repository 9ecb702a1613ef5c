// piscina as users run it: one link in the pool's workerData, each worker connecting when piscina starts it, the
// pool growing under load and ending idle workers (by terminate()) as it shrinks, then destroyed. Every task's
// records reach the main thread's exporter once; the places of workers piscina ended are taken over.
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { statsWithHistograms } from '../support/histogram-stats.js';

const filename = fileURLToPath(new URL('../fixtures/piscina-task.mjs', import.meta.url));
const MAX_THREADS = 3;

describe('piscina', () => {
  it('a link made without workers serves a pool of several threads', async () => {
    const { stats, collect } = statsWithHistograms({ flushIntervalMillis: 5 });
    const link = stats.workerLink();
    // Every thread started at once and kept: each connects and takes a place of the one link.
    const threads = 4;
    const pool = new Piscina({ filename, workerData: { link }, minThreads: threads, maxThreads: threads });
    onTestFinished(() => pool.destroy());
    const tasks = Array.from({ length: 4 * threads }, () => pool.run({ chunks: 2000, bytes: 64, ms: 0.5 }));
    let chunks = 0;
    for (const done of await Promise.all(tasks)) chunks += done as number;
    expect(pool.threads.length).toBe(threads);
    await pool.destroy();
    const exported = await collect();
    expect(exported.values.get('backup.operations{BackupEngine,Builtin,Compressor:Write}')).toBe(chunks);
    expect(exported.values.get('backup.bytes{BackupEngine,Builtin,Compressor:Write}')).toBe(chunks * 64);
  });

  it('tasks in a pool that grows and shrinks: exact totals, through the pool and after it is destroyed', async () => {
    const { stats, collect } = statsWithHistograms({ flushIntervalMillis: 5 });
    const link = stats.workerLink({ workers: MAX_THREADS });
    // piscina's defaults but for the bounds: idle workers above minThreads end at once (idleTimeout 0).
    const pool = new Piscina({ filename, workerData: { link }, minThreads: 1, maxThreads: MAX_THREADS });
    onTestFinished(() => pool.destroy());
    let chunks = 0;
    // Each burst after the first starts threads on the places of threads piscina ended, the third on places taken
    // over once already: three bursts show the takeover and its repeat, and every thread start loads the library.
    for (let burst = 0; burst < 3; burst++) {
      const tasks = Array.from({ length: 12 }, (_, i) => pool.run({ chunks: 500 + i, bytes: 64, ms: 0.75 }));
      for (const done of await Promise.all(tasks)) chunks += done as number;
      // Idle between bursts, so that piscina ends the workers above minThreads and starts new ones next time.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const exported = await collect();
      expect(exported.values.get('backup.operations{BackupEngine,Builtin,Compressor:Write}')).toBe(chunks);
    }
    await pool.destroy();
    const exported = await collect();
    expect(exported.values.get('backup.operations{BackupEngine,Builtin,Compressor:Write}')).toBe(chunks);
    expect(exported.values.get('backup.bytes{BackupEngine,Builtin,Compressor:Write}')).toBe(chunks * 64);
    expect(exported.values.get('backup.time{BackupEngine,Builtin,Compressor:Write}')).toBeCloseTo(
      (chunks * 0.75) / 1000,
      6,
    );
    const point = exported.histogram({
      component: 'BackupEngine',
      implementation: 'Builtin',
      operation: 'Compressor:Write',
    });
    expect(point?.count).toBe(chunks);
  });
});
