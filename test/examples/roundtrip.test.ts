import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  readRuns,
  readSummary,
  row,
  runCli,
  sha256File,
  startCli,
} from '../../packages/examples/test-support/run-cli.js';
import { waitForOutput } from '../support/child.js';
import { freePort } from '../support/free-port.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'backupstats-example-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Relative path -> sha256 of every regular file under `root`. */
async function checksums(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out.set(relative(root, path), await sha256File(path));
  }
  return out;
}

interface Manifest {
  compression: string;
  files: { path: string; object: string; size: number; sha256: string; storedSize: number }[];
}

describe('the example backup tool (pnpm demo)', () => {
  it('backs up and restores a generated tree byte for byte, and the exported totals match the manifest', async () => {
    const work = join(dir, 'demo');
    const storage = join(work, 'storage');
    const restored = join(work, 'restored');
    const summary = join(dir, 'demo-summary.json');
    const result = await runCli([
      '--size',
      '3MiB',
      '--files',
      '25',
      '--keep',
      '--storage',
      storage,
      '--restore-to',
      restored,
      '--summary-json',
      summary,
    ]);
    expect(result.stderr).not.toContain('error');
    expect(result.code).toBe(0);
    const kept = /kept: (.+)/.exec(result.stdout)?.[1];
    expect(kept).toBeDefined();
    onTestFinished(() => rm(kept as string, { recursive: true, force: true }));
    const source = join(kept as string, 'source');

    const original = await checksums(source);
    expect(original.size).toBe(25);
    expect(await checksums(restored)).toEqual(original);

    const manifest = JSON.parse(await readFile(join(storage, 'MANIFEST.json'), 'utf8')) as Manifest;
    const sizes = manifest.files.reduce((n, f) => n + f.size, 0);
    const stored = manifest.files.reduce((n, f) => n + f.storedSize, 0);
    expect(sizes).toBe(3 * 1024 * 1024);
    for (const entry of manifest.files) {
      expect(entry.sha256).toBe(original.get(entry.path));
      expect((await stat(join(storage, entry.object))).size).toBe(entry.storedSize);
    }

    // Read back from the OpenTelemetry pipeline by the tool, not counted by it.
    const rows = await readSummary(summary);
    const files = manifest.files.length;
    expect(row(rows, 'backup', 'BackupEngine', 'Source:Open').operations).toBe(files);
    expect(row(rows, 'backup', 'BackupEngine', 'Source:Read').bytes).toBe(sizes);
    expect(row(rows, 'backup', 'BackupEngine', 'Source:Close').operations).toBe(files);
    expect(row(rows, 'backup', 'BackupEngine', 'Compressor:Write').bytes).toBe(sizes);
    expect(row(rows, 'backup', 'BackupEngine', 'Compressor:Close').operations).toBe(files);
    expect(row(rows, 'backup', 'BackupStorage', 'Destination:Open').operations).toBe(files);
    expect(row(rows, 'backup', 'BackupStorage', 'Destination:Write').bytes).toBe(stored);
    expect(row(rows, 'backup', 'BackupStorage', 'Destination:Close').operations).toBe(files);
    expect(row(rows, 'backup', 'BackupStorage', 'File:Write').operations).toBe(1);
    expect(row(rows, 'backup', 'BackupEngine', 'Backup')).toMatchObject({ operations: 1, bytes: sizes });
    expect(row(rows, 'restore', 'BackupStorage', 'Source:Open').operations).toBe(files);
    expect(row(rows, 'restore', 'BackupStorage', 'Source:Read').bytes).toBe(stored);
    expect(row(rows, 'restore', 'BackupEngine', 'Decompressor:Read').bytes).toBe(sizes);
    expect(row(rows, 'restore', 'BackupEngine', 'Decompressor:Close').operations).toBe(files);
    expect(row(rows, 'restore', 'BackupEngine', 'Destination:Write').bytes).toBe(sizes);
    expect(row(rows, 'restore', 'BackupEngine', 'Destination:Close').operations).toBe(files);
    expect(row(rows, 'restore', 'BackupEngine', 'Restore')).toMatchObject({ operations: 1, bytes: sizes });
    expect(row(rows, 'verify', 'BackupEngine', 'Verify')).toMatchObject({ operations: 1, bytes: sizes });
    // One successful run of each family: the whole Backup, Restore and Verify, and a Prune of the storage that
    // keeps the one backup this run made.
    const engine = { component: 'BackupEngine', implementation: 'Builtin', outcome: 'success', reason: '-', runs: 1 };
    expect(await readRuns(summary)).toEqual([
      { family: 'backup', operation: 'Backup', ...engine },
      { family: 'prune', operation: 'Prune', ...engine, component: 'BackupStorage', implementation: 'File' },
      { family: 'restore', operation: 'Restore', ...engine },
      { family: 'verify', operation: 'Verify', ...engine },
    ]);
    expect(result.stdout).toContain('prune: 0 old backups deleted, 0 B freed, 1 kept');
    // The printed table is the same data.
    expect(result.stdout).toMatch(/backup\s+BackupEngine\/Builtin\s+Source:Open\s+25\s/);
    expect(result.stdout).toMatch(/restore\s+BackupEngine\/Builtin\s+Restore\s+success\s+-\s+1$/m);
  });

  // Through tsx, as `pnpm demo` runs it: the one run of the folder storage on what users run (the rest of the
  // file runs the compiled tool, which starts at half the CPU).
  it('backs up and restores a folder the user names (brotli, nested, empty and unicode-named files)', async () => {
    const source = join(dir, 'named');
    await mkdir(join(source, 'a', 'b', 'c'), { recursive: true });
    await writeFile(join(source, 'empty'), '');
    await writeFile(join(source, 'a', 'héllo wörld.txt'), 'x'.repeat(100_000));
    await writeFile(
      join(source, 'a', 'b', 'c', 'deep.bin'),
      Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 256)),
    );
    const storage = join(dir, 'named-storage');
    const restored = join(dir, 'named-restored');
    const summary = join(dir, 'named-summary.json');
    const result = await runCli(
      [
        source,
        '--compression',
        'brotli',
        '--storage',
        storage,
        '--restore-to',
        restored,
        '--summary-json',
        summary,
        '--quiet',
      ],
      { viaTsx: true },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(await checksums(restored)).toEqual(await checksums(source));
    const manifest = JSON.parse(await readFile(join(storage, 'MANIFEST.json'), 'utf8')) as Manifest;
    expect(manifest.compression).toBe('brotli');
    const rows = await readSummary(summary);
    expect(row(rows, 'backup', 'BackupEngine', 'Source:Open').operations).toBe(3);
    expect(row(rows, 'backup', 'BackupEngine', 'Source:Read').bytes).toBe(170_000);
  });

  it('runs backup and restore as separate commands, with plain progress lines when not on a terminal', async () => {
    const source = join(dir, 'split');
    await mkdir(source, { recursive: true });
    await writeFile(join(source, 'one.txt'), 'one\n'.repeat(50_000));
    const storage = join(dir, 'split-storage');
    const backup = await runCli(['backup', source, storage]);
    expect(backup.code).toBe(0);
    expect(backup.stderr).toMatch(/^backup: 1 files, 195\.3 KiB$/m);
    expect(backup.stderr).toMatch(/^backup: 100% 195\.3 KiB of 195\.3 KiB, .+, done in .+, 1\/1 files$/m);
    const target = join(dir, 'split-restored');
    const restore = await runCli(['restore', storage, target]);
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain('every size and sha256 matches the manifest');
    expect(await checksums(target)).toEqual(await checksums(source));
  });

  it('--serve keeps the Prometheus endpoint up after a one-shot run, with the final totals, until SIGTERM', async () => {
    const port = await freePort();
    const child = startCli(['--serve', '--quiet', '--size', '1MiB', '--files', '4'], {
      env: { OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1', OTEL_EXPORTER_PROMETHEUS_PORT: String(port) },
    });
    onTestFinished(() => child.kill());
    await waitForOutput(
      child,
      (stdout) => /^serving http:\/\/127\.0\.0\.1:\d+\/metrics/m.exec(stdout) ?? undefined,
      'a "serving" line',
      60_000,
    );
    // Still up a while after the run: the endpoint alone must not be what keeps it alive.
    await sleep(500);
    expect(child.exit()).toBeUndefined();
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const read = /^backup_bytes_total\{[^}]*operation="Source:Read"[^}]*\} (\d+)/m.exec(text);
    expect(Number(read?.[1])).toBe(1024 * 1024);
    expect(text).toMatch(/^restore_operations_total\{[^}]*operation="Restore"[^}]*\} 1$/m);
    child.child.kill('SIGTERM');
    expect((await child.exited).code, child.stderr()).toBe(0);
  });
});
