// The bottleneck stage of a run, on vitest's fake clock: a scripted pipeline (a source, a compressor, a destination,
// each metered as users meter theirs, every operation timed) with one stage made slow on purpose. The report's data
// names that stage, its busy shares are the exported time over the run's duration, its totals are what the reader
// received; with the slowness moved to another stage, the verdict moves.
import { pipeline } from 'node:stream/promises';
import { meterReadable, meterTransform, meterWritable, type Stats, trackRun } from 'backupstats';
import { type BackupStatsReport, reportData } from 'backupstats/report';
import { describe, expect } from 'vitest';
import { selfPushing, slowSink, spend, useFakeClock, waitingSource } from '../support/fake-clock.js';
import { it } from '../support/fixtures.js';
import { statsWithHistograms } from '../support/histogram-stats.js';

useFakeClock();

const CHUNKS = 40;
const EXACT = { timeOneIn: 1 };

/** Per chunk, ms: what reading, compressing and writing one chunk costs. */
interface Costs {
  readonly read: number;
  readonly compress: number;
  readonly write: number;
}

async function backupThrough(stats: Stats, costs: Costs): Promise<void> {
  const engine = stats.scope({ component: 'BackupEngine', implementation: 'Builtin' });
  const storage = stats.scope({ component: 'BackupStorage', implementation: 'File' });
  const times = (ms: number) => Array.from({ length: CHUNKS }, () => ms);
  await trackRun(
    engine.scope({ operation: 'Backup' }),
    () =>
      pipeline(
        meterReadable(
          waitingSource(times(costs.read), () => 4096),
          engine.scope({ operation: 'Source:Read' }),
          EXACT,
        ),
        meterTransform(selfPushing(times(costs.compress)), engine.scope({ operation: 'Compressor:Write' }), EXACT),
        meterWritable(slowSink(times(costs.write)), storage.scope({ operation: 'Destination:Write' }), EXACT),
      ),
    { bytes: CHUNKS * 4096 },
  );
}

function stageShares(report: BackupStatsReport): Map<string, number> {
  const run = report.runs[0];
  if (run === undefined) throw new Error('no run in the report');
  return new Map(run.stages.map((stage) => [stage.operation, stage.busyShare]));
}

describe('the bottleneck stage', () => {
  it('is the slow compressor, its shares the exported times over the run, its totals the exported ones', async () => {
    const { stats, collect } = statsWithHistograms();
    await backupThrough(stats.backup, { read: 1, compress: 20, write: 2 });
    const report = reportData(stats);
    const exported = await collect();

    expect(report.runs).toHaveLength(1);
    const run = report.runs[0] as BackupStatsReport['runs'][number];
    expect(run).toMatchObject({ family: 'backup', operation: 'Backup', outcome: 'success', bytes: CHUNKS * 4096 });
    expect(run.bottleneck).toMatchObject({ component: 'BackupEngine', operation: 'Compressor:Write' });
    expect(run.bottleneck?.sentence).toMatch(
      /^Compressor:Write was busy \d+ % of the run: this backup is bound by compression \(BackupEngine\/Builtin\)$/,
    );
    // The run's own series is no stage of it.
    expect([...stageShares(report).keys()].sort()).toEqual(['Compressor:Write', 'Destination:Write', 'Source:Read']);
    for (const stage of run.stages) {
      const key = `backup.time{${stage.component},${stage.implementation},${stage.operation}}`;
      const seconds = exported.values.get(key) as number;
      expect(seconds, key).toBeGreaterThan(0);
      expect(stage.seconds).toBeCloseTo(seconds, 6);
      expect(stage.busyShare).toBeCloseTo(seconds / run.seconds, 5);
    }
    expect(run.bottleneck?.busyShare).toBe(Math.max(...run.stages.map((s) => s.busyShare)));
    for (const series of report.series) {
      const labels = `${series.component},${series.implementation},${series.operation}`;
      expect(series.count, labels).toBe(exported.values.get(`backup.operations{${labels}}`));
      expect(series.bytes, labels).toBe(exported.values.get(`backup.bytes{${labels}}`) ?? 0);
      expect(series.seconds, labels).toBeCloseTo(exported.values.get(`backup.time{${labels}}`) as number, 6);
    }
  });

  it('moves with the slowness: a slow destination, then a slow source', async () => {
    const verdicts: (string | undefined)[] = [];
    for (const costs of [
      { read: 1, compress: 2, write: 20 },
      { read: 20, compress: 2, write: 1 },
    ]) {
      const { stats } = statsWithHistograms();
      await backupThrough(stats.backup, costs);
      const run = reportData(stats).runs[0];
      verdicts.push(run?.bottleneck?.operation);
      expect(run?.bottleneck?.sentence).toMatch(
        /of the run: this backup is bound by (writing to its destination|reading its source)/,
      );
    }
    expect(verdicts).toEqual(['Destination:Write', 'Source:Read']);
  });

  it('counts only what moved during the run: a second run after the first', async () => {
    const { stats } = statsWithHistograms();
    await backupThrough(stats.backup, { read: 1, compress: 20, write: 2 });
    stats.flush();
    await backupThrough(stats.backup, { read: 1, compress: 2, write: 20 });
    const [first, second] = reportData(stats).runs;
    expect(first?.bottleneck?.operation).toBe('Compressor:Write');
    expect(second?.bottleneck?.operation).toBe('Destination:Write');
    expect(second?.stages.find((s) => s.operation === 'Source:Read')?.count).toBe(
      first?.stages.find((s) => s.operation === 'Source:Read')?.count,
    );
  });

  it('says how much of the run no metered stage covers when the busiest stage is busy well under the run', () => {
    const { stats } = statsWithHistograms();
    const source = stats.backup.scope({
      component: 'BackupEngine',
      implementation: 'Builtin',
      operation: 'Source:Read',
    });
    const destination = stats.backup.scope({
      component: 'BackupStorage',
      implementation: 'File',
      operation: 'Destination:Write',
    });
    const run = stats.backup.scope({ operation: 'Backup' }).startRun();
    // Per chunk, 20 ms: 2 ms reading, 8 ms of work no meter sees, 10 ms writing.
    for (let chunk = 0; chunk < CHUNKS; chunk++) {
      spend(2);
      source.timedIncrementBytes(4096, 2);
      spend(8);
      spend(10);
      destination.timedIncrementBytes(4096, 10);
    }
    run.succeed();
    const bottleneck = reportData(stats).runs[0]?.bottleneck;
    expect(bottleneck).toMatchObject({ operation: 'Destination:Write', busyShare: 0.5 });
    expect(bottleneck?.sentence).toBe(
      'Destination:Write was busy 50 % of the run, the most of its metered stages (BackupStorage/File); ' +
        'at least 40 % of the run went to work no metered stage measured',
    );
  });

  it('names no single bound when no stage is busy most of the run but together they cover it', () => {
    const { stats } = statsWithHistograms();
    const engine = stats.backup.scope({ component: 'BackupEngine', implementation: 'Builtin' });
    const run = engine.scope({ operation: 'Backup' }).startRun();
    // Per chunk, 10 ms, one stage after the other: 4 ms reading, 3 ms compressing, 3 ms writing.
    for (let chunk = 0; chunk < CHUNKS; chunk++) {
      for (const [operation, ms] of [
        ['Source:Read', 4],
        ['Compressor:Write', 3],
        ['Destination:Write', 3],
      ] as const) {
        spend(ms);
        engine.scope({ operation }).timedIncrementBytes(4096, ms);
      }
    }
    run.succeed();
    const bottleneck = reportData(stats).runs[0]?.bottleneck;
    expect(bottleneck).toMatchObject({ operation: 'Source:Read', busyShare: 0.4 });
    expect(bottleneck?.sentence).toBe(
      'Source:Read was busy 40 % of the run, the most of its metered stages (BackupEngine/Builtin); ' +
        "its stages' busy time adds up to the run's length, so no single stage bounds this backup",
    );
  });
});
