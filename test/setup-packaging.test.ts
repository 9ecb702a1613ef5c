import { existsSync, readFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The built package, as users get it: the core must load with @opentelemetry/api alone, and the set-up entry
// must not load any SDK or exporter package before the environment asks for it.
const require = createRequire(import.meta.url);
const packageJsonPath = require.resolve('backupstats/package.json');
const packageDir = dirname(packageJsonPath);
const pkg = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as {
  exports: Record<string, unknown>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** Modules a built file loads when it is loaded (static import / require), and those it imports on demand. */
function imports(file: string): { eager: Set<string>; lazy: Set<string> } {
  const code = readFileSync(join(packageDir, file), 'utf8');
  const eager = new Set<string>();
  const lazy = new Set<string>();
  for (const m of code.matchAll(/^\s*(?:import|export)\s[^"'`;]*?from\s*["']([^"']+)["']/gm)) eager.add(m[1] as string);
  for (const m of code.matchAll(/^\s*import\s*["']([^"']+)["']/gm)) eager.add(m[1] as string);
  for (const m of code.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)) eager.add(m[1] as string);
  for (const m of code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) lazy.add(m[1] as string);
  return { eager, lazy };
}

const external = (names: Set<string>) => [...names].filter((name) => !builtins.has(name)).sort();

describe('package layout', () => {
  it.each(['dist/index.js', 'dist/index.cjs'])('the core (%s) imports no package but @opentelemetry/api', (file) => {
    const { eager, lazy } = imports(file);
    expect(external(eager)).toEqual(['@opentelemetry/api']);
    expect(external(lazy)).toEqual([]);
  });

  it.each(['dist/setup/index.js', 'dist/setup/index.cjs'])(
    'the set-up entry (%s) loads the SDK and every exporter only on demand',
    (file) => {
      const { eager, lazy } = imports(file);
      expect(external(eager)).toEqual(['@opentelemetry/api']);
      expect(external(lazy)).toEqual([
        '@grpc/grpc-js',
        '@opentelemetry/exporter-metrics-otlp-grpc',
        '@opentelemetry/exporter-metrics-otlp-http',
        '@opentelemetry/exporter-metrics-otlp-proto',
        '@opentelemetry/exporter-prometheus',
        '@opentelemetry/resources',
        '@opentelemetry/sdk-metrics',
      ]);
      // Each of them is an optional peer dependency, so that users install only what they use.
      for (const name of external(lazy)) {
        expect(pkg.peerDependencies[name], name).toBeDefined();
        expect(pkg.peerDependenciesMeta[name]?.optional, name).toBe(true);
      }
    },
  );

  it('"backupstats/setup" resolves for import and require, with types', async () => {
    expect(pkg.exports['./setup']).toEqual({
      import: { types: './dist/setup/index.d.ts', default: './dist/setup/index.js' },
      require: { types: './dist/setup/index.d.cts', default: './dist/setup/index.cjs' },
    });
    const esm = await import('backupstats/setup');
    const cjs = require('backupstats/setup') as typeof esm;
    for (const api of [esm, cjs]) {
      expect(Object.keys(api).sort()).toEqual(['exitAfterShutdown', 'shutdownOnExit', 'startBackupStats']);
    }
    expect(existsSync(join(packageDir, 'dist/setup/index.d.ts'))).toBe(true);
    expect(existsSync(join(packageDir, 'dist/setup/index.d.cts'))).toBe(true);
  });
});
