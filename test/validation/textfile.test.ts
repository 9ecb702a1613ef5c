// The textfile exporter's path, refused at set-up (BACKUPSTATS_TEXTFILE_PATH with OTEL_METRICS_EXPORTER=textfile) or
// at the call (createTextfileExporter) with the usual message: what was set, its value and what is accepted, with
// the reason: not a .prom file, a directory that does not exist, and a second job of the same service name in the
// directory (a directory this process cannot write: test/setup/textfile.test.ts, which runs set-up as another user).
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTextfileExporter } from 'backupstats/textfile';
import { describe, expect, onTestFinished } from 'vitest';
import { expectDocumentedCode, thrownBy } from '../support/error-codes.js';
import { it } from '../support/fixtures.js';
import { setUpError } from '../support/set-up-error.js';

const ACCEPTED =
  'accepted: the path of a file ending in .prom (node_exporter reads *.prom only) in an existing directory';

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'backupstats-textfile-validation-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const textfile = (path: string) => ({ OTEL_METRICS_EXPORTER: 'textfile', BACKUPSTATS_TEXTFILE_PATH: path });

describe('BACKUPSTATS_TEXTFILE_PATH at set-up', () => {
  it('unset with OTEL_METRICS_EXPORTER=textfile: named, and what is accepted', async () => {
    const error = await setUpError({ OTEL_METRICS_EXPORTER: 'textfile' });
    expect(error).toBeInstanceOf(TypeError);
    expectDocumentedCode(error, 'BACKUPSTATS_INVALID_ENV');
    expect(error.message).toBe(
      `backupstats: BACKUPSTATS_TEXTFILE_PATH is unset (OTEL_METRICS_EXPORTER names textfile); ${ACCEPTED} this process can write, such as node_exporter's --collector.textfile.directory`,
    );
  });

  it.each([
    [
      'a directory that does not exist',
      (dir: string) => join(dir, 'missing', 'backup.prom'),
      'its directory /D/missing does not exist',
    ],
    [
      'a directory that is a file',
      (dir: string) => join(dir, 'file', 'backup.prom'),
      'its directory /D/file is not a directory',
    ],
    ['a file not ending in .prom', (dir: string) => join(dir, 'backup.txt'), 'it does not end in .prom'],
    ['a temporary-looking name', (dir: string) => join(dir, 'backup.prom.tmp'), 'it does not end in .prom'],
    ['a directory ending in .prom', (dir: string) => join(dir, 'dir.prom'), 'it is a directory'],
  ])('%s: the variable, the path and the reason', async (_case, pathIn, reason) => {
    const dir = scratch();
    writeFileSync(join(dir, 'file'), '');
    mkdirSync(join(dir, 'dir.prom'));
    const path = pathIn(dir);
    const error = await setUpError(textfile(path));
    expect(error).toBeInstanceOf(TypeError);
    expectDocumentedCode(error, 'BACKUPSTATS_INVALID_ENV');
    expect(error.message).toContain(
      `backupstats: BACKUPSTATS_TEXTFILE_PATH is ${JSON.stringify(path)} (${reason.replace('/D', dir)}); ${ACCEPTED}`,
    );
    // Nothing was written: the probe of a writable directory leaves nothing either.
    expect(readdirSync(dir).sort()).toEqual(['dir.prom', 'file']);
  });

  it('a second job of the same service name in the directory: refused at its set-up, naming the other file', async ({
    startFromEnv,
  }) => {
    const dir = scratch();
    const first = await startFromEnv({ ...textfile(join(dir, 'first.prom')), OTEL_SERVICE_NAME: 'nightly' });
    await first.forceFlush();
    const error = await setUpError({ ...textfile(join(dir, 'second.prom')), OTEL_SERVICE_NAME: 'nightly' });
    expectDocumentedCode(error, 'BACKUPSTATS_TEXTFILE_TAKEN');
    expect(error.message).toBe(
      `backupstats: BACKUPSTATS_TEXTFILE_PATH is ${JSON.stringify(join(dir, 'second.prom'))}, and ${join(dir, 'first.prom')} in the same directory already holds the series of service_name "nightly": node_exporter would serve only one of two such series. Give each job its own OTEL_SERVICE_NAME (service.name), or remove that file if no job writes it any more`,
    );
    // Another service name in the same directory is another job: accepted. The same file again, once the first run
    // ended, is a re-run: accepted.
    await startFromEnv({ ...textfile(join(dir, 'other.prom')), OTEL_SERVICE_NAME: 'weekly' });
    await first.shutdown();
    await startFromEnv({ ...textfile(join(dir, 'first.prom')), OTEL_SERVICE_NAME: 'nightly' });
    expect(
      readdirSync(dir)
        .filter((name) => name.endsWith('.prom'))
        .sort(),
    ).toEqual(['first.prom']);
  });
});

describe('createTextfileExporter options', () => {
  it.each([
    [undefined, 'a value of type undefined'],
    ['', '""'],
    [42, 'a value of type number'],
    ['backup.txt', '"backup.txt" (it does not end in .prom)'],
  ])('path %j: refused, named', (path, shown) => {
    expect(() => createTextfileExporter({ path } as never)).toThrow(
      new TypeError(
        `backupstats: createTextfileExporter option path is ${shown}; ${ACCEPTED} this process can write, such as node_exporter's --collector.textfile.directory`,
      ),
    );
    expectDocumentedCode(
      thrownBy(() => createTextfileExporter({ path } as never)),
      'BACKUPSTATS_INVALID_OPTION',
    );
  });

  it.each([
    ['a name that is only .prom', (dir: string) => join(dir, '.prom'), '(it does not end in .prom)'],
    ['blanks', () => '   ', ''],
    [
      'a directory under a file',
      (dir: string) => join(dir, 'file', 'sub', 'b.prom'),
      "(its directory /D/file/sub cannot be read: ENOTDIR: not a directory, stat '/D/file/sub')",
    ],
  ])('%s: refused, with the reason', (_case, pathIn, reason) => {
    const dir = scratch();
    writeFileSync(join(dir, 'file'), '');
    const path = pathIn(dir);
    expect(() => createTextfileExporter({ path })).toThrow(
      `backupstats: createTextfileExporter option path is ${JSON.stringify(path)}${reason ? ' ' : ''}${reason.replaceAll('/D', dir)}; ${ACCEPTED}`,
    );
    expect(readdirSync(dir)).toEqual(['file']);
  });

  it('a directory that does not exist: refused at the call, naming the directory', () => {
    const path = join(scratch(), 'none', 'b.prom');
    expect(() => createTextfileExporter({ path })).toThrow(
      /option path is ".*none\/b\.prom" \(its directory .*none does not exist\)/,
    );
  });

  it('not an options object: refused', () => {
    expect(() => createTextfileExporter('x.prom' as never)).toThrow(
      'backupstats: createTextfileExporter options is "x.prom"; accepted: an object such as { path: "/var/lib/prometheus/node-exporter/backup.prom" }, or nothing',
    );
  });
});
