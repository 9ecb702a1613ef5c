// The textfile's lock in this process, against real files in a scratch directory: `.<name>.lock` beside the file
// holds the id of the process that writes it. A second exporter of the file is refused until the first one's
// shutdown; a lock whose process no longer runs, or that holds no process id, is taken over; a lock of a running
// process is refused, naming it. Two processes: test/processes/textfile-lock.test.ts.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTextfileExporter } from 'backupstats/textfile';
import { describe, expect, it, onTestFinished } from 'vitest';

/** A scratch directory, removed when the test ends, and the path of a textfile and of its lock in it. */
function scratch(): { dir: string; path: string; lock: string } {
  const dir = mkdtempSync(join(tmpdir(), 'backupstats-lock-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return { dir, path: join(dir, 'nightly.prom'), lock: join(dir, '.nightly.prom.lock') };
}

/** An exporter of `path`, shut down when the test ends. */
function exporterOf(path: string) {
  const exporter = createTextfileExporter({ path });
  onTestFinished(() => exporter.shutdown());
  return exporter;
}

/** What `create` threw. */
function thrown(create: () => unknown): Error & { code?: string } {
  try {
    create();
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('nothing thrown');
}

/** The id of a process that no longer runs: above Linux's largest. */
const ENDED = 2 ** 22 + 1;

describe('the textfile lock', () => {
  it('holds this process id from the exporter until its shutdown; a second exporter of the file is refused meanwhile', async () => {
    const { dir, path, lock } = scratch();
    const first = createTextfileExporter({ path });
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid}\n`);
    // The temporary file the lock was linked from is gone.
    expect(readdirSync(dir)).toEqual(['.nightly.prom.lock']);
    const error = thrown(() => createTextfileExporter({ path }));
    expect(error.code).toBe('BACKUPSTATS_TEXTFILE_TAKEN');
    expect(error.message).toBe(
      `backupstats: createTextfileExporter option path is ${JSON.stringify(path)}, and this process writes it already (another textfile exporter of the same file): two runs writing one file would replace each other's series with every export. Let the running job end before starting another (a lock left by a process that no longer runs is taken over; remove the lock file if that process is no run of this job)`,
    );
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid}\n`);

    await first.shutdown();
    expect(readdirSync(dir)).toEqual([]);
    // Free again; the first exporter's shutdown, said again, leaves the new holder's lock alone.
    const second = exporterOf(path);
    await first.shutdown();
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid}\n`);
    await second.shutdown();
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([
    ['a process that no longer runs', `${ENDED}\n`],
    ['no process id', 'not a pid\n'],
    ['0', '0\n'],
    ['a negative number', '-7\n'],
    ['nothing', ''],
  ])('left holding %s is taken over', async (_what, content) => {
    const { dir, path, lock } = scratch();
    writeFileSync(lock, content);
    const exporter = createTextfileExporter({ path });
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid}\n`);
    expect(readdirSync(dir)).toEqual(['.nightly.prom.lock']);
    await exporter.shutdown();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('of a running process is refused, naming the process and its lock file, and left as it was', () => {
    const { dir, path, lock } = scratch();
    writeFileSync(lock, `${process.ppid}\n`);
    const error = thrown(() => createTextfileExporter({ path }));
    expect(error.code).toBe('BACKUPSTATS_TEXTFILE_TAKEN');
    expect(error.message).toContain(
      `option path is ${JSON.stringify(path)}, and process ${process.ppid} writes it (its lock file ${lock}): two runs`,
    );
    expect(readFileSync(lock, 'utf8')).toBe(`${process.ppid}\n`);
    expect(readdirSync(dir)).toEqual(['.nightly.prom.lock']);
  });

  it('that cannot be removed (a directory) is refused after one try, its holder unknown', () => {
    const { dir, path, lock } = scratch();
    mkdirSync(lock);
    const error = thrown(() => createTextfileExporter({ path }));
    expect(error.code).toBe('BACKUPSTATS_TEXTFILE_TAKEN');
    expect(error.message).toContain(`and process (unknown) writes it (its lock file ${lock})`);
    expect(readdirSync(dir)).toEqual(['.nightly.prom.lock']);
  });

  it('taken over from an ended process by the exporter is not removed by its shutdown once another process holds it', async () => {
    const { path, lock } = scratch();
    const exporter = createTextfileExporter({ path });
    // Another run took the lock over meanwhile (as if this process had been stopped long enough to look ended).
    writeFileSync(lock, `${process.ppid}\n`);
    await exporter.shutdown();
    expect(readFileSync(lock, 'utf8')).toBe(`${process.ppid}\n`);
  });
});
