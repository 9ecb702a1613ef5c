// writeReport's writes to one path: they land in the order they were asked for (so the page of a later call stays,
// whatever the size or speed of an earlier one), a failed write leaves no file behind, and the temporary files a
// killed process left beside the page are removed by the next write.
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBackupStats } from 'backupstats';
import { type BackupStatsReport, writeReport } from 'backupstats/report';
import { beforeAll, describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { freshLibrary } from '../support/fresh-library.js';

async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'backupstats-write-report-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function embedded(html: string): BackupStatsReport {
  const json = /<script type="application\/json" id="backupstats-report">([^<]*)<\/script>/.exec(html)?.[1];
  return JSON.parse(json as string) as BackupStatsReport;
}

/** The id of a process that has ended. */
function endedPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  if (pid === undefined) throw new Error('no child process');
  return pid;
}

describe('writeReport to one path', () => {
  it('leaves the page of the later call, even while the earlier, larger page is still being written', async ({
    harness,
  }) => {
    const dir = await folder();
    const path = join(dir, 'report.html');
    // Long labels make a page of some megabytes, whose write takes longer than that of a page of one series.
    const large = createBackupStats({ meterProvider: harness.provider, maxScopes: 2000 });
    for (let k = 0; k < 1500; k++)
      large.backup.scope({ operation: `op-${k}-${'p'.repeat(200)}` }).timedIncrementBytes(1, 1);
    const small = createBackupStats({ meterProvider: harness.provider });
    small.restore.scope({ operation: 'Restore' }).startRun().fail('source');
    let older = 0;
    for (let round = 0; round < 5; round++) {
      await Promise.all([writeReport(large, path), writeReport(small, path)]);
      if (embedded(await readFile(path, 'utf8')).runs[0]?.outcome !== 'failure') older++;
    }
    expect(older, 'rounds whose older page stayed on disk').toBe(0);
    await large.shutdown();
    await small.shutdown();
    expect(await readdir(dir)).toEqual(['report.html']);
  });

  it('leaves no file when the write fails', async ({ harness }) => {
    const dir = await folder();
    // A folder where the page should go: the rename over it fails.
    const path = join(dir, 'report.html');
    await mkdir(path);
    const stats = createBackupStats({ meterProvider: harness.provider });
    await expect(writeReport(stats, path)).rejects.toThrow();
    expect(await readdir(dir)).toEqual(['report.html']);
    expect(await readdir(path)).toEqual([]);
    await stats.shutdown();
  });

  it("removes the temporary files of processes that ended in the middle of a write, not a running one's", async ({
    harness,
  }) => {
    const dir = await folder();
    const path = join(dir, 'report.html');
    const dead = endedPid();
    const left = [`.report.html.${dead}-1.tmp`, `.report.html.${dead}.0badf00d.tmp`];
    // The parent of this process runs: what looks like its write in progress stays. So does process 1's, which runs
    // as another user unless this one is root (its id is then answered with EPERM).
    const running = [`.report.html.${process.ppid}-1.tmp`, '.report.html.1-1.tmp'];
    for (const name of [...left, ...running, '.other.html.1-1.tmp']) await writeFile(join(dir, name), 'half a page');
    const stats = createBackupStats({ meterProvider: harness.provider });
    await writeReport(stats, path);
    expect((await readdir(dir)).sort()).toEqual([...running, '.other.html.1-1.tmp', 'report.html'].sort());
    await stats.shutdown();
  });

  it("removes a temporary file named with this process's id once no write of its own to the path is under way", async ({
    harness,
  }) => {
    const dir = await folder();
    const path = join(dir, 'report.html');
    // Left by an earlier process that had this process's id, before and after a write of this process.
    const stale = join(dir, `.report.html.${process.pid}-999999.tmp`);
    const stats = createBackupStats({ meterProvider: harness.provider });
    onTestFinished(() => stats.shutdown());
    for (let round = 0; round < 2; round++) {
      await writeFile(stale, 'half a page');
      await writeReport(stats, path);
      expect(await readdir(dir)).toEqual(['report.html']);
    }
  });

  it("keeps the temporary file of this process's write under way, not an ended one's; a write asked for meanwhile waits", async ({
    harness,
  }) => {
    const dir = await folder();
    const path = join(dir, 'report.html');
    const stats = createBackupStats({ meterProvider: harness.provider });
    onTestFinished(() => stats.shutdown());
    const first = writeReport(stats, path);
    const second = writeReport(stats, path);
    await first;
    // The second write's temporary file is made as the first ends; its write, sync and rename take turns of the loop.
    await new Promise(setImmediate);
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toHaveLength(1);
    stats.restore.scope({ operation: 'Restore' }).startRun().fail('source');
    // One of an ended process is removed all the same.
    // Written at once: the write under way takes no turn of the loop meanwhile.
    writeFileSync(join(dir, `.report.html.${endedPid()}-1.tmp`), 'half a page');
    const third = writeReport(stats, path);
    await expect(Promise.all([second, third])).resolves.toHaveLength(2);
    expect(await readdir(dir)).toEqual(['report.html']);
    expect(embedded(await readFile(path, 'utf8')).runs[0]?.outcome).toBe('failure');
  });

  it("rejects with the system's error when the folder does not exist", async ({ harness }) => {
    const dir = await folder();
    const stats = createBackupStats({ meterProvider: harness.provider });
    onTestFinished(() => stats.shutdown());
    await expect(writeReport(stats, join(dir, 'missing', 'report.html'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('the exit listener of the writes in progress', () => {
  /** The library loaded afresh (outside the tests), so that its first write of the process is one of this test's. */
  let fresh: { createBackupStats: typeof createBackupStats; writeReport: typeof writeReport };
  beforeAll(async () => {
    const { core, report } = await freshLibrary();
    fresh = { createBackupStats: core.createBackupStats, writeReport: report.writeReport };
  });

  it('is registered at the first write, once, and removes the temporary file of a write under way only', async ({
    harness,
  }) => {
    const dir = await folder();
    const path = join(dir, 'report.html');
    const temporaries = (): string[] => readdirSync(dir).filter((name) => name.endsWith('.tmp'));
    const listeners = process.listeners('exit');
    const added = () => process.listeners('exit').filter((listener) => !listeners.includes(listener));
    onTestFinished(() => {
      for (const listener of added()) process.off('exit', listener);
    });
    const stats = fresh.createBackupStats({ meterProvider: harness.provider });
    onTestFinished(() => stats.shutdown());
    await fresh.writeReport(stats, path);
    const writing = fresh.writeReport(stats, path);
    // The temporary file is made within the write's first turn of the loop.
    await new Promise(setImmediate);
    const [temporary] = temporaries();
    expect(temporary).toBeDefined();
    expect(added().map((listener) => listener.name)).toEqual(['removeWritesInProgress']);
    const removeWritesInProgress = added()[0] as () => void;
    removeWritesInProgress();
    expect(temporaries()).toEqual([]);
    await expect(writing).rejects.toMatchObject({ code: 'ENOENT' });
    // A file at the name of that ended write's temporary file is not one of a write under way.
    await writeFile(join(dir, temporary as string), 'not a write of this process');
    removeWritesInProgress();
    expect(temporaries()).toEqual([temporary]);
    expect(added()).toHaveLength(1);
  });
});
