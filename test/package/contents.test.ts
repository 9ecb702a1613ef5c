import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { npmEnv } from '@backupstats/testkit/node-process';
import { describe, expect, it } from 'vitest';
import { copyForPacking } from '../../scripts/package-copy.mjs';
import { createHarness } from '../support/harness.js';

// What `npm publish` would ship: the files of the tarball and the metadata npm shows, as `npm pack` sees them.
const require = createRequire(import.meta.url);
const packageJsonPath = require.resolve('backupstats/package.json');
const packageDir = dirname(packageJsonPath);
const pkg = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as {
  version: string;
  license: string;
  repository: { type: string; url: string; directory: string };
  homepage: string;
  bugs: { url: string };
};

interface Packed {
  readonly unpackedSize: number;
  readonly files: Array<{ path: string }>;
}

let packedOnce: Packed | undefined;

/** `npm pack --dry-run` of the package, run once for the file (each start of npm costs about a second of CPU). */
function pack(): Packed {
  packedOnce ??= runPack();
  return packedOnce;
}

/** Packs a copy of the package without node_modules: the same tarball for half the CPU (scripts/package-copy.mjs). */
function runPack(): Packed {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const copy = copyForPacking(packageDir);
  const run = spawnSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: copy,
    encoding: 'utf8',
    env: npmEnv(),
  });
  rmSync(copy, { recursive: true, force: true });
  // Under pnpm, npm may warn of pnpm's own settings: no warning the user did not cause.
  if (run.status !== 0 || /npm warn/i.test(run.stderr)) throw new Error(`npm pack said:\n${run.stderr}`);
  const out = run.stdout;
  const [first] = JSON.parse(out) as Packed[];
  if (first === undefined) throw new Error(`npm pack printed no package:\n${out}`);
  return first;
}

function packedFiles(): string[] {
  return pack()
    .files.map((file) => file.path)
    .sort();
}

describe('the packed tarball', () => {
  it('holds the README, the LICENSE, package.json and the built entry points, and no sources or tests', () => {
    const files = packedFiles();
    for (const file of ['README.md', 'LICENSE', 'package.json']) expect(files).toContain(file);
    for (const entry of [
      'index',
      'setup/index',
      's3/index',
      'http/index',
      'azure/index',
      'pushgateway/index',
      'textfile/index',
      'worker/index',
      'testing/index',
    ]) {
      for (const ext of ['js', 'cjs', 'd.ts', 'd.cts']) expect(files).toContain(`dist/${entry}.${ext}`);
    }
    expect(
      files.filter((file) => !file.startsWith('dist/') && !['README.md', 'LICENSE', 'package.json'].includes(file)),
    ).toEqual([]);
    expect(readFileSync(join(packageDir, 'LICENSE'), 'utf8')).toContain(
      'Apache License\n                           Version 2.0, January 2004',
    );
    expect(pkg.license).toBe('Apache-2.0');
  });

  it('ships readable code and no source maps, under 1 MB unpacked', () => {
    const packed = pack();
    const files = packed.files.map((file) => file.path);
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    expect(packed.unpackedSize).toBeLessThan(1_000_000);
    // Readable as written, not minified: a stack trace's source line is a line a person reads. The report's code
    // inlines uPlot's minified script as one string, and is left out.
    for (const file of files.filter((f) => /\.c?js$/.test(f) && !f.startsWith('dist/report/'))) {
      const text = readFileSync(join(packageDir, file), 'utf8');
      const lines = text.split('\n');
      expect(text.length / lines.length, file).toBeLessThan(100);
      expect(Math.max(...lines.map((line) => line.length)), file).toBeLessThan(1000);
    }
  });

  it('says where the code, the home page and the issues are', () => {
    expect(pkg.repository).toEqual({
      type: 'git',
      url: 'git+https://github.com/backupstats/backupstats.git',
      directory: 'packages/processor',
    });
    expect(pkg.homepage).toMatch(/^https:\/\/github\.com\/backupstats\/backupstats\b/);
    expect(pkg.bugs.url).toBe('https://github.com/backupstats/backupstats/issues');
  });
});

describe('VERSION', () => {
  it("is package.json's version in the ESM and the CommonJS build of backupstats/testing", async () => {
    const esm = await import('backupstats/testing');
    const cjs = require('backupstats/testing') as typeof esm;
    expect(esm.VERSION).toBe(pkg.version);
    expect(cjs.VERSION).toBe(pkg.version);
  });

  it('is the instrumentation scope version of the exported metrics', async () => {
    const { createBackupStats } = await import('backupstats');
    const { METER_NAME } = await import('backupstats/testing');
    const harness = createHarness();
    const stats = createBackupStats({ meterProvider: harness.provider });
    stats.backup.timedIncrement(1);
    const exported = await harness.collect();
    await stats.shutdown();
    await harness.shutdown();
    const scopes = exported.scopeMetrics.map((s) => s.scope);
    expect(scopes).toContainEqual(expect.objectContaining({ name: METER_NAME, version: pkg.version }));
  });
});
