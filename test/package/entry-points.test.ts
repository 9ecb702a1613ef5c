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
  dependencies?: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/**
 * Modules a built file loads when it is loaded (static import / require), and those it imports on demand,
 * with those of the shared chunks it loads (relative imports of code, followed).
 */
function imports(file: string, seen = new Set<string>()): { eager: Set<string>; lazy: Set<string> } {
  const eager = new Set<string>();
  const lazy = new Set<string>();
  if (seen.has(file)) return { eager, lazy };
  seen.add(file);
  const code = readFileSync(join(packageDir, file), 'utf8');
  for (const m of code.matchAll(/^\s*(?:import|export)\s[^"'`;]*?from\s*["']([^"']+)["']/gm)) eager.add(m[1] as string);
  for (const m of code.matchAll(/^\s*import\s*["']([^"']+)["']/gm)) eager.add(m[1] as string);
  for (const m of code.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)) eager.add(m[1] as string);
  for (const m of code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) lazy.add(m[1] as string);
  // Type declarations name their chunks too, but only code is followed.
  const declarations = /\.d\.c?ts$/.test(file);
  for (const name of [...eager]) {
    if (declarations || !name.startsWith('.')) continue;
    const chunk = imports(join(dirname(file), name), seen);
    for (const inner of chunk.eager) eager.add(inner);
    for (const inner of chunk.lazy) lazy.add(inner);
  }
  return { eager, lazy };
}

const external = (names: Set<string>) =>
  [...names].filter((name) => !builtins.has(name) && !name.startsWith('.')).sort();

describe('package layout', () => {
  it.each(['dist/index.js', 'dist/index.cjs'])(
    'the core (%s) and the chunks it loads import no package but @opentelemetry/api',
    (file) => {
      const { eager, lazy } = imports(file);
      expect(
        [...eager].some((name) => name.includes('chunk')),
        'the core is in a chunk shared with the other entries',
      ).toBe(true);
      expect(external(eager)).toEqual(['@opentelemetry/api']);
      expect(external(lazy)).toEqual([]);
    },
  );

  it.each([
    ['ESM', 'import'],
    ['CommonJS', 'require'],
  ])('the entry points share one copy of the core (%s)', async (_, how) => {
    const load = async (entry: string) => (how === 'import' ? await import(entry) : require(entry));
    const core = (await load('backupstats')) as typeof import('backupstats');
    const testing = (await load('backupstats/testing')) as typeof import('backupstats/testing');
    const setup = (await load('backupstats/setup')) as typeof import('backupstats/setup');
    const disabled = await setup.startBackupStats({ disabled: true });
    expect(disabled.backup).toBe(testing.noopStats);
    expect(disabled.restore).toBe(testing.noopStats);
    expect(testing.createRecordingStats().scope({ component: core.Component.BackupEngine }).labels.component).toBe(
      core.Component.BackupEngine,
    );
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

  it.each(['dist/s3/index.js', 'dist/s3/index.cjs'])(
    'the S3 entry (%s) loads no package: the AWS SDK is only in its types',
    (file) => {
      const { eager, lazy } = imports(file);
      expect(external(eager)).toEqual([]);
      expect(external(lazy)).toEqual([]);
    },
  );

  it.each(['dist/s3/index.d.ts', 'dist/s3/index.d.cts'])(
    "the S3 entry's types (%s) name @aws-sdk/client-s3, an optional peer",
    (file) => {
      const { eager } = imports(file);
      expect(external(eager).filter((name) => !name.startsWith('.'))).toEqual(['@aws-sdk/client-s3']);
      expect(pkg.peerDependencies['@aws-sdk/client-s3']).toBeDefined();
      expect(pkg.peerDependenciesMeta['@aws-sdk/client-s3']?.optional).toBe(true);
    },
  );

  it.each(['dist/http/index.js', 'dist/http/index.cjs', 'dist/azure/index.js', 'dist/azure/index.cjs'])(
    'the HTTP and Azure entries (%s) load no package: the Azure SDK is only in the types',
    (file) => {
      const { eager, lazy } = imports(file);
      expect(external(eager)).toEqual([]);
      expect(external(lazy)).toEqual([]);
    },
  );

  it.each(['dist/azure/index.d.ts', 'dist/azure/index.d.cts'])(
    "the Azure entry's types (%s) name @azure/storage-blob, an optional peer",
    (file) => {
      const { eager } = imports(file);
      expect(external(eager).filter((name) => !name.startsWith('.'))).toEqual(['@azure/storage-blob']);
      expect(pkg.peerDependencies['@azure/storage-blob']).toBeDefined();
      expect(pkg.peerDependenciesMeta['@azure/storage-blob']?.optional).toBe(true);
    },
  );

  it.each(['dist/worker/index.js', 'dist/worker/index.cjs'])(
    'the worker entry (%s) and the chunks it loads import no package but @opentelemetry/api',
    (file) => {
      const { eager, lazy } = imports(file);
      expect(external(eager)).toEqual(['@opentelemetry/api']);
      expect(external(lazy)).toEqual([]);
    },
  );

  it.each(['dist/index.js', 'dist/index.cjs'])(
    'the core (%s) and the chunks it loads carry no test double: they are the code of backupstats/testing',
    (file) => {
      const code = (name: string, seen: Set<string>): string => {
        if (seen.has(name)) return '';
        seen.add(name);
        const text = readFileSync(join(packageDir, name), 'utf8');
        const chunks = [...text.matchAll(/(?:from\s*|require\(\s*)["'](\.[^"']+)["']/g)].map((m) => m[1] as string);
        return text + chunks.map((chunk) => code(join(dirname(name), chunk), seen)).join('');
      };
      const core = code(file, new Set());
      expect(core).toContain('createBackupStats');
      for (const name of ['createRecordingStats', 'noopStats']) expect(core, name).not.toContain(name);
    },
  );

  it.each(['dist/testing/index.js', 'dist/testing/index.cjs'])(
    'the testing entry (%s) and the chunks it loads import no package but @opentelemetry/api',
    (file) => {
      const { eager, lazy } = imports(file);
      expect(external(eager).filter((name) => name !== '@opentelemetry/api')).toEqual([]);
      expect(external(lazy)).toEqual([]);
    },
  );

  it('"backupstats" exports only values a user calls or names, the same for import and require', async () => {
    const esm = await import('backupstats');
    const cjs = require('backupstats') as typeof esm;
    for (const api of [esm, cjs]) {
      expect(Object.keys(api).sort()).toEqual([
        'Component',
        'DEFAULT_HISTOGRAM_BOUNDARIES',
        'Implementation',
        'Operation',
        'RUN_DURATION_BOUNDARIES',
        'RunFailure',
        'createBackupStats',
        'createHistogramProducer',
        'meterIterable',
        'meterReadable',
        'meterTransform',
        'meterWritable',
        'timeAsync',
        'timeSync',
        'trackRun',
      ]);
    }
  });

  it('"backupstats/testing" resolves for import and require, with types', async () => {
    expect(pkg.exports['./testing']).toEqual({
      import: { types: './dist/testing/index.d.ts', default: './dist/testing/index.js' },
      require: { types: './dist/testing/index.d.cts', default: './dist/testing/index.cjs' },
    });
    const esm = await import('backupstats/testing');
    const cjs = require('backupstats/testing') as typeof esm;
    for (const api of [esm, cjs]) {
      expect(Object.keys(api).sort()).toEqual(['METER_NAME', 'UNSET', 'VERSION', 'createRecordingStats', 'noopStats']);
    }
  });

  it('"backupstats/worker" resolves for import and require, with types', async () => {
    expect(pkg.exports['./worker']).toEqual({
      import: { types: './dist/worker/index.d.ts', default: './dist/worker/index.js' },
      require: { types: './dist/worker/index.d.cts', default: './dist/worker/index.cjs' },
    });
    const esm = await import('backupstats/worker');
    const cjs = require('backupstats/worker') as typeof esm;
    for (const api of [esm, cjs]) expect(Object.keys(api).sort()).toEqual(['connectBackupStats']);
  });

  it.each(['dist/report/index.js', 'dist/report/index.cjs'])(
    'the report entry (%s) and the chunks it loads import no package at all: uPlot is inlined',
    (file) => {
      const { eager, lazy } = imports(file);
      expect(external(eager)).toEqual([]);
      expect(external(lazy)).toEqual([]);
      expect(readFileSync(join(packageDir, file), 'utf8')).toContain('https://github.com/leeoniya/uPlot (v1.6.32)');
      expect(Object.keys(pkg.dependencies ?? {})).toEqual([]);
    },
  );

  it('"backupstats/report" resolves for import and require, with types', async () => {
    expect(pkg.exports['./report']).toEqual({
      import: { types: './dist/report/index.d.ts', default: './dist/report/index.js' },
      require: { types: './dist/report/index.d.cts', default: './dist/report/index.cjs' },
    });
    const esm = await import('backupstats/report');
    const cjs = require('backupstats/report') as typeof esm;
    for (const api of [esm, cjs]) {
      expect(Object.keys(api).sort()).toEqual([
        'REPORT_VERSION',
        'bottleneckOf',
        'renderReport',
        'reportData',
        'writeReport',
      ]);
    }
  });

  it('"backupstats/s3" resolves for import and require, with types', async () => {
    expect(pkg.exports['./s3']).toEqual({
      import: { types: './dist/s3/index.d.ts', default: './dist/s3/index.js' },
      require: { types: './dist/s3/index.d.cts', default: './dist/s3/index.cjs' },
    });
    const esm = await import('backupstats/s3');
    const cjs = require('backupstats/s3') as typeof esm;
    for (const api of [esm, cjs]) expect(Object.keys(api).sort()).toEqual(['S3Operation', 'meterS3Client']);
  });

  it.each([
    ['http', ['HttpOperation', 'meterHttpRequests']],
    ['azure', ['HttpOperation', 'meterBlobClient']],
  ])('"backupstats/%s" resolves for import and require, with types', async (entry, names) => {
    expect(pkg.exports[`./${entry}`]).toEqual({
      import: { types: `./dist/${entry}/index.d.ts`, default: `./dist/${entry}/index.js` },
      require: { types: `./dist/${entry}/index.d.cts`, default: `./dist/${entry}/index.cjs` },
    });
    // Spelt out: vite warns of an import() whose specifier it cannot read.
    const esm = (entry === 'http' ? await import('backupstats/http') : await import('backupstats/azure')) as Record<
      string,
      unknown
    >;
    const cjs = require(`backupstats/${entry}`) as Record<string, unknown>;
    for (const api of [esm, cjs]) expect(Object.keys(api).sort()).toEqual(names);
    // One HttpOperation object for both entries, as for the core's label constants.
    expect(esm.HttpOperation).toBe(((await import('backupstats/http')) as Record<string, unknown>).HttpOperation);
  });

  it.each(['dist/pushgateway/index.js', 'dist/pushgateway/index.cjs'])(
    'the Pushgateway entry (%s) loads the API, and exporter-prometheus (for its serializer), an optional peer, only when an exporter is made',
    (file) => {
      const { eager, lazy } = imports(file);
      // Imported on demand: without the peer the entry still loads, and an export says the npm install line.
      expect(external(eager)).toEqual(['@opentelemetry/api']);
      expect(external(lazy)).toEqual(['@opentelemetry/exporter-prometheus']);
      expect(pkg.peerDependenciesMeta['@opentelemetry/exporter-prometheus']?.optional).toBe(true);
    },
  );

  it('"backupstats/pushgateway" resolves for import and require, with types', async () => {
    expect(pkg.exports['./pushgateway']).toEqual({
      import: { types: './dist/pushgateway/index.d.ts', default: './dist/pushgateway/index.js' },
      require: { types: './dist/pushgateway/index.d.cts', default: './dist/pushgateway/index.cjs' },
    });
    const esm = await import('backupstats/pushgateway');
    const cjs = require('backupstats/pushgateway') as typeof esm;
    for (const api of [esm, cjs]) expect(Object.keys(api).sort()).toEqual(['createPushgatewayExporter']);
    expect(existsSync(join(packageDir, 'dist/pushgateway/index.d.ts'))).toBe(true);
  });

  it.each(['dist/textfile/index.js', 'dist/textfile/index.cjs'])(
    'the textfile entry (%s) loads the API, and exporter-prometheus (for its serializer), an optional peer, only when an exporter is made',
    (file) => {
      const { eager, lazy } = imports(file);
      // Imported on demand: without the peer the entry still loads, and an export says the npm install line.
      expect(external(eager)).toEqual(['@opentelemetry/api']);
      expect(external(lazy)).toEqual(['@opentelemetry/exporter-prometheus']);
    },
  );

  it('"backupstats/textfile" resolves for import and require, with types', async () => {
    expect(pkg.exports['./textfile']).toEqual({
      import: { types: './dist/textfile/index.d.ts', default: './dist/textfile/index.js' },
      require: { types: './dist/textfile/index.d.cts', default: './dist/textfile/index.cjs' },
    });
    const esm = await import('backupstats/textfile');
    const cjs = require('backupstats/textfile') as typeof esm;
    for (const api of [esm, cjs]) expect(Object.keys(api).sort()).toEqual(['createTextfileExporter']);
    expect(existsSync(join(packageDir, 'dist/textfile/index.d.ts'))).toBe(true);
  });

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
