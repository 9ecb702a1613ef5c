#!/usr/bin/env node
// Compiles src/ to plain JavaScript in dist/, one file for each file (no bundling), for the tests: they start the
// backup tool dozens of times, and tsx compiling it at each start costs about twice the CPU of the run itself.
// `pnpm demo` stays on tsx. dist/ sits next to src/ inside this package, so that the compiled files resolve their
// packages (backupstats, piscina, the SDKs) exactly as the source does. dist/ is emptied first: its oldest file is
// then the time of the build, which test-support/run-cli.ts compares with src/ to refuse a stale build.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const here = import.meta.dirname;
const src = join(here, 'src');
const out = join(here, 'dist');

const entryPoints = readdirSync(src, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
  .map((entry) => join(entry.parentPath, entry.name));

rmSync(out, { recursive: true, force: true });
await build({
  entryPoints,
  outdir: out,
  outbase: src,
  bundle: false,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  tsconfig: join(here, 'tsconfig.json'),
});
console.log(`@backupstats/examples: ${entryPoints.length} files compiled to dist/`);
