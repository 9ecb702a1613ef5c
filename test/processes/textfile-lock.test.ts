// One process at a time writes a textfile: a second run of the same job (a cron job that overran) is refused at
// set-up, naming the process that writes the file, instead of replacing that run's file with every export. A lock
// left by a process that was killed is taken over by the next run.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTextfileExporter } from 'backupstats/textfile';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';

const writer = fileURLToPath(new URL('../fixtures/textfile-writer.mjs', import.meta.url));
const exiting = fileURLToPath(new URL('../fixtures/textfile-exit.mjs', import.meta.url));

describe('two processes writing one textfile', () => {
  it('the second is refused at set-up with the first one named; after the first is killed, the next run writes', async ({
    startFixture,
  }) => {
    const dir = mkdtempSync(join(tmpdir(), 'backupstats-lock-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'nightly.prom');
    const env = {
      OTEL_METRICS_EXPORTER: 'textfile',
      BACKUPSTATS_TEXTFILE_PATH: path,
      OTEL_SERVICE_NAME: 'nightly',
      FIXTURE_SCOPES: '3',
    };
    const first = startFixture(writer, env);
    await first.waitForEvent('writing');
    const pid = first.child.pid as number;

    const second = startFixture(writer, { ...env, FIXTURE_WRITES: '1' });
    expect(await second.exited(), second.stderr()).toEqual({ code: 1, signal: null });
    expect(second.stderr()).toContain(
      `Error: backupstats: BACKUPSTATS_TEXTFILE_PATH is ${JSON.stringify(path)}, and process ${pid} writes it`,
    );

    // Killed, the first run cannot remove its lock: the next run finds its process gone and takes the lock over.
    first.child.kill('SIGKILL');
    expect(await first.exited()).toEqual({ code: null, signal: 'SIGKILL' });
    expect(readFileSync(join(dir, '.nightly.prom.lock'), 'utf8')).toBe(`${pid}\n`);
    const next = startFixture(writer, { ...env, FIXTURE_WRITES: '1' });
    expect(await next.exited(), next.stderr()).toEqual({ code: 0, signal: null });
    // Its shutdown released the lock: the directory holds the file alone.
    expect(readdirSync(dir)).toEqual(['nightly.prom']);
  });

  it('in one process, a second exporter of the same file is refused until the first is shut down', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'backupstats-lock-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'nightly.prom');
    const exporter = createTextfileExporter({ path });
    expect(() => createTextfileExporter({ path })).toThrow(
      expect.objectContaining({
        code: 'BACKUPSTATS_TEXTFILE_TAKEN',
        message: expect.stringContaining('this process writes it already'),
      }),
    );
    await exporter.shutdown();
    expect(existsSync(join(dir, '.nightly.prom.lock'))).toBe(false);
    const again = createTextfileExporter({ path });
    await again.shutdown();
  });
  it('a process that exits without shutting its exporters down removes their locks as it exits', async ({
    startFixture,
  }) => {
    const dir = mkdtempSync(join(tmpdir(), 'backupstats-lock-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const job = startFixture(exiting, { FIXTURE_PATHS: [join(dir, 'a.prom'), join(dir, 'b.prom')].join(',') });
    expect(await job.exited(), job.stderr()).toEqual({ code: 0, signal: null });
    expect(readdirSync(dir)).toEqual([]);
  });
});
