import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, cp, mkdir, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPILED_CLI, readSummary, row, runCli } from '../../packages/examples/test-support/run-cli.js';
import { expectFailedRun } from '../support/failed-run.js';
import { sourceTree as makeSourceTree } from '../support/source-tree.js';

// Root ignores file permissions: as root, the permission cases run the tool as `nobody`, so the kernel refuses.
// That needs a checkout `nobody` can read; where it cannot, those two cases are skipped, and say why.
const asRoot = process.getuid?.() === 0;
const NOBODY = 65534;
const unprivileged = asRoot ? { uid: NOBODY, gid: NOBODY } : {};
const permissionsApply =
  !asRoot ||
  spawnSync(
    process.execPath,
    ['-e', `require('fs').accessSync(${JSON.stringify(COMPILED_CLI)}, require('fs').constants.R_OK)`],
    {
      uid: NOBODY,
      gid: NOBODY,
    },
  ).status === 0;
if (!permissionsApply) {
  console.warn(
    `backupstats example tests: running as root and user nobody cannot read ${COMPILED_CLI}; the permission cases are skipped`,
  );
}
// A real full file system: a 256 KiB tmpfs in a private mount namespace (unprivileged user namespaces).
const canMountTmpfs = spawnSync('unshare', ['-rm', 'true']).status === 0;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'backupstats-errors-'));
  // Reachable by the unprivileged user of the permission cases.
  await chmod(dir, 0o777);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A source folder of three files, a.txt, b.txt and c.txt, 40 000 bytes each. */
const sourceTree = (name: string): Promise<string> => makeSourceTree(dir, name);

/** One backup made by the tool (of a source tree), on first use: each test damages a copy of it. */
let made: Promise<string> | undefined;
async function backup(): Promise<string> {
  const source = await sourceTree('backup-source');
  const storage = join(dir, 'backup-storage');
  const result = await runCli(['backup', source, storage, '--quiet']);
  expect(result.code, result.stderr).toBe(0);
  return storage;
}

/** A backup made by the tool, to damage: a copy of the one backup, in a folder of its own. */
async function backupOf(name: string): Promise<string> {
  made ??= backup();
  const storage = join(dir, `${name}-storage`);
  await cp(await made, storage, { recursive: true });
  return storage;
}

describe('bad input: a clear error naming the file, a non-zero exit code, the metrics of what happened and the failed run exported', () => {
  it('a missing source folder exits with 3', async () => {
    const missing = join(dir, 'no-such-folder');
    const summary = join(dir, 'missing-summary.json');
    const result = await runCli([missing, '--quiet', '--summary-json', summary]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`source folder ${missing} cannot be read: does not exist (ENOENT)`);
    await expectFailedRun(summary, 'backup', 'source');
  });

  it.runIf(permissionsApply)(
    'an unreadable file exits with 3, names it, and the files before it are exported (console exporter)',
    async () => {
      const source = await sourceTree('unreadable');
      await chmod(join(source, 'b.txt'), 0o000);
      const summary = join(dir, 'unreadable-summary.json');
      const result = await runCli(
        ['backup', source, join(dir, 'unreadable-storage'), '--concurrency', '1', '--quiet', '--summary-json', summary],
        {
          ...unprivileged,
          env: { OTEL_METRICS_EXPORTER: 'console' },
        },
      );
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(`cannot read source file ${join(source, 'b.txt')}: permission denied (EACCES)`);
      // a.txt was backed up before b.txt failed to open: exactly its open and its bytes.
      const rows = await readSummary(summary);
      expect(row(rows, 'backup', 'BackupEngine', 'Source:Open').operations).toBe(1);
      expect(row(rows, 'backup', 'BackupEngine', 'Source:Read').bytes).toBe(36_000);
      expect(row(rows, 'backup', 'BackupEngine', 'Backup').operations).toBe(0);
      await expectFailedRun(summary, 'backup', 'source');
      // The console exporter printed the final export at shutdown, on the error path too, the failed run in it.
      expect(result.stdout).toContain("name: 'backup.bytes'");
      expect(result.stdout).toContain("name: 'backup.last_failure.timestamp'");
    },
  );

  it.runIf(permissionsApply)(
    'a read-only storage folder exits with 4 and names the file it could not create',
    async () => {
      const source = await sourceTree('readonly-source');
      const storage = join(dir, 'readonly-storage');
      await mkdir(storage);
      await chmod(storage, 0o555);
      // One file at a time, so that the first object the tool creates is 000000.gz.
      const summary = join(dir, 'readonly-summary.json');
      const result = await runCli(
        ['backup', source, storage, '--concurrency', '1', '--quiet', '--summary-json', summary],
        unprivileged,
      );
      expect(result.code).toBe(4);
      expect(result.stderr).toContain(`cannot write ${join(storage, '000000.gz')}: permission denied (EACCES)`);
      await expectFailedRun(summary, 'backup', 'destination');
    },
  );

  it.skipIf(!canMountTmpfs)('a full storage file system exits with 4 and names the file being written', async () => {
    const source = join(dir, 'full-source');
    await mkdir(source);
    await writeFile(join(source, 'big.bin'), randomBytes(1024 * 1024));
    const mountpoint = join(dir, 'full-mount');
    await mkdir(mountpoint);
    const storage = join(mountpoint, 'storage');
    const summary = join(dir, 'full-summary.json');
    const result = await runCli(['backup', source, storage, '--quiet', '--summary-json', summary], {
      wrapper: ['unshare', '-rm', 'sh', '-c', 'mount -t tmpfs -o size=256k tmpfs "$0" && exec "$@"', mountpoint],
    });
    expect(result.stderr).toContain(`cannot write ${join(storage, '000000.gz')}: no space left on the device (ENOSPC)`);
    expect(result.code).toBe(4);
    // What was written before the disk filled up is exported.
    const rows = await readSummary(summary);
    expect(row(rows, 'backup', 'BackupStorage', 'Destination:Open').operations).toBe(1);
    expect(row(rows, 'backup', 'BackupStorage', 'Destination:Write').bytes).toBeGreaterThan(0);
    expect(row(rows, 'backup', 'BackupStorage', 'Destination:Write').bytes).toBeLessThanOrEqual(256 * 1024);
    await expectFailedRun(summary, 'backup', 'destination');
  });

  it.skipIf(!canMountTmpfs)(
    'a read-only file system exits with 4 and names the folder it could not create',
    async () => {
      const source = await sourceTree('rofs-source');
      const mountpoint = join(dir, 'rofs-mount');
      await mkdir(mountpoint);
      const storage = join(mountpoint, 'storage');
      const summary = join(dir, 'rofs-summary.json');
      const result = await runCli(['backup', source, storage, '--quiet', '--summary-json', summary], {
        wrapper: ['unshare', '-rm', 'sh', '-c', 'mount -t tmpfs -o ro,size=64k tmpfs "$0" && exec "$@"', mountpoint],
      });
      expect(result.code).toBe(4);
      expect(result.stderr).toContain(`cannot write ${storage}: the file system is read-only (EROFS)`);
      await expectFailedRun(summary, 'backup', 'destination');
    },
  );

  it('a corrupted archive at restore exits with 5 and names it', async () => {
    const storage = await backupOf('corrupt');
    const object = join(storage, '000001.gz');
    const data = await readFile(object);
    for (let i = 20; i < data.length - 8; i += 97) data[i] = (data[i] ?? 0) ^ 0xff;
    await writeFile(object, data);
    const summary = join(dir, 'corrupt-summary.json');
    const result = await runCli([
      'restore',
      storage,
      join(dir, 'corrupt-restored'),
      '--concurrency',
      '1',
      '--quiet',
      '--summary-json',
      summary,
    ]);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(`cannot restore from ${object}: corrupted archive (Z_DATA_ERROR`);
    const rows = await readSummary(summary);
    expect(row(rows, 'restore', 'BackupStorage', 'Source:Open').operations).toBe(2);
    expect(row(rows, 'restore', 'BackupEngine', 'Destination:Write').bytes).toBeGreaterThanOrEqual(36_000);
    await expectFailedRun(summary, 'restore', 'corrupted');
  });

  // Three or four runs of the tool, each a Node.js start with tsx: longer than the tier's 30 s on two cores under the
  // suite.
  it('a truncated archive, a missing archive and a damaged manifest exit with 5 and name the file', {
    timeout: 90_000,
  }, async () => {
    const storage = await backupOf('damaged');
    const truncated = join(storage, '000002.gz');
    await truncate(truncated, 30);
    const summary = (n: number) => join(dir, `damaged-summary-${n}.json`);
    let result = await runCli(['restore', storage, join(dir, 'damaged-1'), '--quiet', '--summary-json', summary(1)]);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(`cannot restore from ${truncated}: corrupted archive`);
    await expectFailedRun(summary(1), 'restore', 'corrupted');

    await rm(truncated);
    result = await runCli(['restore', storage, join(dir, 'damaged-2'), '--quiet', '--summary-json', summary(2)]);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(`cannot restore from ${truncated}: does not exist (ENOENT)`);
    await expectFailedRun(summary(2), 'restore', 'corrupted');

    const manifest = join(storage, 'MANIFEST.json');
    await writeFile(manifest, '{"format": "backupstats-example/1", "files": [');
    result = await runCli(['restore', storage, join(dir, 'damaged-3'), '--quiet', '--summary-json', summary(3)]);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(`cannot restore from ${manifest}: the manifest is not valid JSON`);
    await expectFailedRun(summary(3), 'restore', 'corrupted');
  });

  it('an archive that decompresses to other content fails its checksum with 5', async () => {
    const storage = await backupOf('mismatch');
    const manifestPath = join(storage, 'MANIFEST.json');
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { files: { object: string }[] };
    // Swap two objects: both decompress cleanly, to the wrong file.
    const [first, second] = manifest.files;
    [first!.object, second!.object] = [second!.object, first!.object];
    await writeFile(manifestPath, JSON.stringify(manifest));
    const summary = join(dir, 'mismatch-summary.json');
    const result = await runCli([
      'restore',
      storage,
      join(dir, 'mismatch-restored'),
      '--concurrency',
      '1',
      '--quiet',
      '--summary-json',
      summary,
    ]);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(
      /cannot restore a\.txt: its archive .*000001\.gz gives data that does not match the manifest/,
    );
    await expectFailedRun(summary, 'restore', 'corrupted');
  });

  // Refused before any run starts (and before the metrics are set up, for a bad variable): no run to count.
  it('a bad flag or variable exits with 2, naming it and what it accepts', async () => {
    let result = await runCli(['--size', 'lots']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--size is "lots"; accepted: a size from 1B to 64GiB');
    result = await runCli(['--compression', 'zstd']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--compression is "zstd"; accepted: gzip or brotli');
    result = await runCli(['--quiet'], { env: { OTEL_METRICS_EXPORTER: 'carrier-pigeon' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('OTEL_METRICS_EXPORTER');
  });
});
