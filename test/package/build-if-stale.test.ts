// `pnpm demo` builds the library only when dist/ is stale (a build is about 20 s of a 24 s demo run). A copy of
// the package, never built, is built by scripts/build-if-stale.mjs, left alone while current, and built again once
// a source is newer than its build.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { npmEnv } from '@backupstats/testkit/node-process';
import { describe, expect, it, onTestFinished } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const packageDir = join(root, 'packages', 'processor');
const script = join(root, 'scripts', 'build-if-stale.mjs');

function buildIfStale(dir: string): string {
  // Without npm_execpath the script builds with npm, as a plain `node scripts/build-if-stale.mjs` would.
  const env = { ...npmEnv(), npm_execpath: '' };
  const run = spawnSync(process.execPath, [script, dir], { encoding: 'utf8', env });
  expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
  return `${run.stdout}\n${run.stderr}`;
}

const builtAt = (dir: string) => statSync(join(dir, 'dist', 'index.js')).mtimeMs;

describe('pnpm demo and the build', () => {
  it('the demo script builds through build-if-stale, not unconditionally', () => {
    const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { demo: string } };
    expect(scripts.demo).toMatch(
      /^node scripts\/build-if-stale\.mjs && pnpm --filter @backupstats\/examples run demo$/,
    );
  });

  it('builds a package never built, leaves a current build alone, rebuilds after a source changed', () => {
    // Inside the package, so that tsup and the types resolve from its node_modules; .run-* is git-ignored.
    const copy = mkdtempSync(join(packageDir, '.run-stale-'));
    onTestFinished(() => rmSync(copy, { recursive: true, force: true }));
    for (const entry of ['src', 'package.json'])
      cpSync(join(packageDir, entry), join(copy, entry), { recursive: true });
    // The copy builds without declarations and without tree shaking: what is tested is when the script builds, and
    // the declarations are most of a build's time (the suite's own build makes them), Rollup's tree shaking
    // half of the rest (the suite's own build does it); esbuild still writes every entry point.
    const config = readFileSync(join(packageDir, 'tsup.config.ts'), 'utf8');
    expect(config).toContain('dts: declarations(ENTRY),');
    expect(config).toContain('treeshake: true,');
    writeFileSync(
      join(copy, 'tsup.config.ts'),
      config.replace('dts: declarations(ENTRY),', 'dts: false,').replace('treeshake: true,', 'treeshake: false,'),
    );
    const tsconfig = JSON.parse(readFileSync(join(packageDir, 'tsconfig.json'), 'utf8')) as { extends: string };
    writeFileSync(join(copy, 'tsconfig.json'), JSON.stringify({ ...tsconfig, extends: `../${tsconfig.extends}` }));

    expect(buildIfStale(copy)).not.toContain('current');
    expect(existsSync(join(copy, 'dist', 'setup', 'index.cjs'))).toBe(true);
    const first = builtAt(copy);

    expect(buildIfStale(copy)).toContain('backupstats: dist/ is current, not rebuilt');
    expect(builtAt(copy)).toBe(first);

    const later = new Date(Date.now() + 5000);
    utimesSync(join(copy, 'src', 'index.ts'), later, later);
    expect(buildIfStale(copy)).not.toContain('current');
    expect(builtAt(copy)).toBeGreaterThan(first);
  }, 240_000);
});
