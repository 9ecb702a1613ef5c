// `npm pack` (and so `npm publish`) builds the package first: packing a checkout that was never built must not
// give a package without its code. A copy of the package without dist/ is packed for real. The copy builds without
// declarations, most of a build's time, and without tree shaking (Rollup rewriting esbuild's output), half of
// the rest: what is tested is that packing builds, with the package's own build command; the declarations in the
// tarball are pinned by contents.test.ts, which packs the suite's own build.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { npmEnv } from '@backupstats/testkit/node-process';
import { describe, expect, it, onTestFinished } from 'vitest';

const packageDir = fileURLToPath(new URL('../../packages/processor/', import.meta.url));

describe('npm pack of a checkout that was never built', () => {
  it('builds first, so the tarball holds the entry points', () => {
    // Inside the package, so that tsup and the types resolve from its node_modules; .run-* is git-ignored.
    const copy = mkdtempSync(join(packageDir, '.run-prepack-'));
    onTestFinished(() => rmSync(copy, { recursive: true, force: true }));
    for (const entry of ['src', 'package.json', 'README.md', 'LICENSE']) {
      cpSync(join(packageDir, entry), join(copy, entry), { recursive: true });
    }
    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts.prepack).toBe(manifest.scripts.build);
    const config = readFileSync(join(packageDir, 'tsup.config.ts'), 'utf8');
    expect(config).toContain('dts: declarations(ENTRY),');
    expect(config).toContain('treeshake: true,');
    writeFileSync(
      join(copy, 'tsup.config.ts'),
      config.replace('dts: declarations(ENTRY),', 'dts: false,').replace('treeshake: true,', 'treeshake: false,'),
    );
    const tsconfig = JSON.parse(readFileSync(join(packageDir, 'tsconfig.json'), 'utf8')) as { extends: string };
    writeFileSync(join(copy, 'tsconfig.json'), JSON.stringify({ ...tsconfig, extends: `../${tsconfig.extends}` }));
    expect(existsSync(join(copy, 'dist'))).toBe(false);

    const run = spawnSync('npm', ['pack', '--dry-run', '--json'], { cwd: copy, encoding: 'utf8', env: npmEnv() });
    expect(run.status, run.stderr).toBe(0);
    // Under pnpm, npm may warn of pnpm's own settings: no warning the user did not cause.
    expect(run.stderr).not.toMatch(/npm warn/i);
    const out = run.stdout;
    // The build's own output comes first, with colour codes that hold '[' under CI: the JSON is the line '[' on.
    const [packed] = JSON.parse(out.slice(out.search(/^\[$/m))) as Array<{ files: Array<{ path: string }> }>;
    const files = (packed?.files ?? []).map((file) => file.path);
    for (const entry of [
      'index',
      'setup/index',
      's3/index',
      'http/index',
      'azure/index',
      'pushgateway/index',
      'textfile/index',
      'worker/index',
    ]) {
      for (const ext of ['js', 'cjs']) expect(files).toContain(`dist/${entry}.${ext}`);
    }
  }, 120_000);
});
