#!/usr/bin/env node
// Builds the library only when its dist/ is older than what it is built from, so that `pnpm demo` starts at once on
// a current build instead of rebuilding every time (a build is about 20 s of a 24 s demo run with --size 4MiB).
// Stale: no dist/, or a file of src/, package.json, tsup.config.ts or the tsconfigs newer than dist/'s oldest
// file (tsup cleans dist/ and writes every file anew). `node scripts/build-if-stale.mjs [package folder]`, default
// packages/processor; the build is the package's `build` script, run by the package manager running this script.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const dir = resolve(process.argv[2] ?? join(import.meta.dirname, '..', 'packages', 'processor'));

/** The modification times of every file under `folder`. */
function mtimes(folder) {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => statSync(join(entry.parentPath, entry.name)).mtimeMs);
}

const inputs = [
  ...mtimes(join(dir, 'src')),
  ...['package.json', 'tsup.config.ts', 'tsconfig.json', '../../tsconfig.base.json']
    .map((file) => join(dir, file))
    .filter((file) => existsSync(file))
    .map((file) => statSync(file).mtimeMs),
];
const outputs = existsSync(join(dir, 'dist')) ? mtimes(join(dir, 'dist')) : [];
if (outputs.length > 0 && Math.max(...inputs) <= Math.min(...outputs)) {
  console.log('backupstats: dist/ is current, not rebuilt');
  process.exit(0);
}
// pnpm (and npm) say which of them runs this script in npm_execpath; without one, npm.
const manager = process.env.npm_execpath;
const [command, args] =
  manager !== undefined && manager !== ''
    ? [process.execPath, [manager, 'run', 'build']]
    : [process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build']];
const build = spawnSync(command, args, { cwd: dir, stdio: 'inherit' });
process.exit(build.status ?? 1);
