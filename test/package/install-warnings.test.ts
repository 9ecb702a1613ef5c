// The README's two commands begin with `npx -y pnpm@10.34.9 install`: it must print no warning the user did not cause
// (such as pnpm's boxed "Ignored build scripts: protobufjs", whose postinstall only checks its own version). The
// workspace's manifests and lockfile are installed into a fresh folder from the store the workspace's own install
// filled (--offline: no registry), as on a fresh clone.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { registryEnv } from '@backupstats/testkit/node-process';
import { describe, expect, it, onTestFinished } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('npx -y pnpm@10.34.9 install on a fresh clone', () => {
  it('prints no warning', () => {
    // In the workspace (the store hard-links there); test/.run-* is git-ignored.
    const copy = mkdtempSync(join(root, 'test', '.run-install-'));
    // rm -rf: fs.rmSync takes twice its CPU for the install's 55,000 files, and more than a hook's 30 s on a busy
    // machine.
    onTestFinished(() => {
      spawnSync('rm', ['-rf', copy]);
    }, 120_000);
    for (const file of ['package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml'])
      cpSync(join(root, file), join(copy, file));
    for (const name of readdirSync(join(root, 'packages'))) {
      mkdirSync(join(copy, 'packages', name), { recursive: true });
      cpSync(join(root, 'packages', name, 'package.json'), join(copy, 'packages', name, 'package.json'));
    }
    const run = spawnSync('npx', ['-y', 'pnpm@10.34.9', 'install', '--frozen-lockfile', '--offline'], {
      cwd: copy,
      encoding: 'utf8',
      env: { ...registryEnv(), CI: '' },
    });
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).toBe(0);
    expect(output).not.toMatch(/warn|ignored build scripts|deprecat/i);
  }, 180_000);
});
