// The timeline's bound: 100,000 flushes on 2,000 series (1,999 and the overflow series' room in each family's
// bound) keep memory flat, since each series keeps a fixed number of samples however long the process runs, and its
// totals stay those recorded. Memory is measured after a full GC; no timing is asserted.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createBackupStats } from 'backupstats';
import { renderReport, reportData } from 'backupstats/report';
import { expect } from 'vitest';
import { it } from '../support/fixtures.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
setFlagsFromString('--no-expose-gc');

const SERIES = 2000;
const FLUSHES = 100_000;
/** Series recorded on between two flushes: each series moves every SERIES / PER_FLUSH flushes. */
const PER_FLUSH = 20;

function heapAfterGc(): number {
  gc();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

it('100,000 flushes on 2,000 series keep memory flat and the totals exact', { timeout: 300_000 }, async ({
  harness,
}) => {
  const stats = createBackupStats({
    meterProvider: harness.provider,
    maxScopes: SERIES + 1,
    flushIntervalMillis: 2 ** 30,
  });
  const handles = Array.from({ length: SERIES }, (_, i) =>
    stats.backup.scope({ component: 'BackupEngine', implementation: `Impl${i % 50}`, operation: `Op${i}` }),
  );
  const run = stats.backup.scope({ operation: 'Backup' }).startRun();
  const sizes: number[] = [];
  for (let flush = 1; flush <= FLUSHES; flush++) {
    const first = (flush * PER_FLUSH) % SERIES;
    for (let i = first; i < first + PER_FLUSH; i++) handles[i]?.timedIncrementBytes(3, 0.5);
    stats.flush();
    // After every series has filled and halved its samples a few times, then at the end.
    if (flush === 10_000 || flush === FLUSHES) sizes.push(heapAfterGc());
  }
  const [atTenThousand, atEnd] = sizes as [number, number];
  const grown = atEnd - atTenThousand;
  console.log(
    `timeline memory: ${(atTenThousand / 1024).toFixed(0)} KiB at 10,000 flushes, ${(atEnd / 1024).toFixed(0)} KiB at 100,000 (${(grown / 1024).toFixed(1)} KiB more)`,
  );
  // 90,000 more flushes moved 1.8 million series: kept without a bound, their samples alone would be 55 MiB.
  expect(grown).toBeLessThan(2 * 1024 * 1024);

  run.succeed();
  const report = reportData(stats);
  // The page of 2,000 series stays small: its run lists its 24 busiest stages, its charts the 16 busiest operations.
  const page = renderReport(report);
  console.log(`report page of ${SERIES} series: ${(page.length / 1024).toFixed(0)} KiB`);
  expect(page.length).toBeLessThan(1.5 * 1024 * 1024);
  expect(report.runs[0]?.stages).toHaveLength(24);
  const moves = (FLUSHES * PER_FLUSH) / SERIES;
  expect(report.series).toHaveLength(SERIES);
  for (const series of report.series) {
    expect(series).toMatchObject({ count: moves, bytes: 3 * moves });
    expect(series.seconds).toBeCloseTo((0.5 * moves) / 1000, 9);
  }
  // The samples still span the whole run: each operation's throughput over time adds up to all its bytes.
  expect(report.timelines).toHaveLength(16);
  for (const timeline of report.timelines) {
    let bytes = 0;
    for (let i = 1; i < report.times.length; i++) {
      bytes +=
        ((timeline.bytesPerSecond[i] ?? 0) * ((report.times[i] as number) - (report.times[i - 1] as number))) / 1000;
    }
    expect(bytes / (3 * moves), timeline.operation).toBeCloseTo(1, 3);
  }
  await stats.shutdown();
});
