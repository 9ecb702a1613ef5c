import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/** The bundle of the library and the SDK (src/library.ts), which the command loads only when it builds stats. */
const LIBRARY = 'library.cjs';

const PROMETHEUS_BUILD = '@opentelemetry/exporter-prometheus/build/src';

/**
 * The modules that stand for the peers the library imports whole, with the names it uses from them. Every use of
 * the Prometheus exporter package takes its serializer; only the scrape endpoint takes the exporter, loaded when
 * read (the package has no `exports` map, so its files are reachable).
 */
const PEER_NAMES = {
  '@opentelemetry/resources': "export { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';",
  '@opentelemetry/exporter-prometheus': [
    `const { PrometheusSerializer } = require('${PROMETHEUS_BUILD}/PrometheusSerializer.js');`,
    'module.exports = { PrometheusSerializer, get PrometheusExporter() {',
    `  return require('${PROMETHEUS_BUILD}/PrometheusExporter.js').PrometheusExporter; } };`,
  ].join('\n'),
} as const;

export default defineConfig({
  // CommonJS bundles: Node.js loads CommonJS without its ES module loader, whose own start-up and per-file work
  // cost a command more than the files' code does. The command (with `meter` and `run`) is one bundle; the library
  // with the OpenTelemetry packages it loads is another (library.cjs), required only by a command that builds stats:
  // a `meter` inside a run never reads it. The worker that copies is a third. The dependencies stay in package.json
  // so that an install gets the same versions.
  entry: { cli: 'src/cli.ts', library: 'src/library.ts', 'meter-worker': 'src/meter-worker.ts' },
  format: ['cjs'],
  // `import.meta.url` (the worker's path, the library's peer resolution) in CommonJS.
  shims: true,
  // The gRPC exporter is not a dependency of the command: its import fails at run time with the library's own
  // missing-package error, as it does for the library.
  noExternal: [
    /^backupstats(\/|$)/,
    /^@opentelemetry\/(?!exporter-metrics-otlp-grpc)/,
    /^protobufjs/,
    /^@protobufjs\//,
  ],
  external: ['@opentelemetry/exporter-metrics-otlp-grpc', '@grpc/grpc-js'],
  clean: true,
  sourcemap: false,
  target: 'node20',
  platform: 'node',
  // The ES module builds of the OpenTelemetry packages, which the bundler trims to what the command uses.
  esbuildOptions(options) {
    options.mainFields = ['module', 'main'];
    // `import()` as `require()` in a promise: the library's bundle runs in a vm.Script (src/code-cache.ts), where an
    // `import()` has no module loader to call. Every package the bundles import at run time is CommonJS or built in.
    options.supported = { 'dynamic-import': false };
  },
  esbuildPlugins: [
    {
      // `import('./library.js')` becomes a load of the library's own bundle rather than a copy of it: as CommonJS
      // (Node.js would load it through its ES module loader, which first scans the whole file for its export names),
      // with V8's code cache (src/code-cache.ts).
      name: 'library-bundle',
      setup(build) {
        build.onResolve({ filter: /^\.\/library\.js$/ }, () => ({ path: LIBRARY, namespace: 'library-bundle' }));
        build.onLoad({ filter: /.*/, namespace: 'library-bundle' }, () => ({
          contents: `module.exports = require('./code-cache.ts').requireWithCodeCache(${JSON.stringify(LIBRARY)});`,
          resolveDir: join(dirname(fileURLToPath(import.meta.url)), 'src'),
          loader: 'js',
        }));
      },
    },
    {
      // The OpenTelemetry ES module builds `import * as process from 'process'`: the global itself, whose properties
      // the bundle reads only when used. A copy of them would read process.stdin and process.stdout, which opens them
      // as streams and makes a pipe on fd 0 or 1 non-blocking (a meter's blocking copy then meets EAGAIN).
      name: 'process-global',
      setup(build) {
        build.onResolve({ filter: /^(node:)?process$/ }, () => ({ path: 'process', namespace: 'process-global' }));
        build.onLoad({ filter: /.*/, namespace: 'process-global' }, () => ({
          contents: 'module.exports = process;',
          loader: 'js',
        }));
      },
    },
    {
      // The library imports these peers whole (`import()` of the package), and a whole package is what a bundle
      // initializes: every resource detector (one loads node:crypto) and the Prometheus exporter's HTTP server
      // (node:http) for a job that only writes a textfile. A module with the names the library uses (PEER_NAMES)
      // lets the bundler keep those. The command's tests fail if a name is missing here.
      name: 'peer-names',
      setup(build) {
        build.onResolve({ filter: /^@opentelemetry\/(resources|exporter-prometheus)$/ }, (args) => {
          if (args.kind !== 'dynamic-import') return undefined;
          return { path: args.path, namespace: 'peer-names' };
        });
        build.onLoad({ filter: /.*/, namespace: 'peer-names' }, (args) => ({
          contents: PEER_NAMES[args.path as keyof typeof PEER_NAMES],
          resolveDir: dirname(fileURLToPath(import.meta.url)),
          loader: 'js',
        }));
      },
    },
    {
      name: 'semantic-conventions-names',
      setup(build) {
        // The Prometheus exporter's `require('@opentelemetry/semantic-conventions')` would bring the whole CommonJS
        // build (200 KB): an ES module that re-exports the names the requiring file uses lets the bundler keep those.
        build.onResolve({ filter: /^@opentelemetry\/semantic-conventions$/ }, (args) => {
          if (args.kind !== 'require-call') return undefined;
          const source = readFileSync(args.importer, 'utf8');
          const binding = /(\w+) = require\("@opentelemetry\/semantic-conventions"\)/.exec(source)?.[1];
          if (binding === undefined) return undefined;
          const names = [...new Set([...source.matchAll(new RegExp(`\\b${binding}\\.(\\w+)`, 'g'))].map((m) => m[1]))];
          return { path: args.importer, namespace: 'semconv-esm', pluginData: { names } };
        });
        build.onLoad({ filter: /.*/, namespace: 'semconv-esm' }, (args) => ({
          contents: `export { ${(args.pluginData as { names: string[] }).names.join(', ')} } from '@opentelemetry/semantic-conventions';`,
          resolveDir: dirname(args.path),
          loader: 'js',
        }));
      },
    },
  ],
  banner: { js: '#!/usr/bin/env node' },
  define: { BACKUPSTATS_CLI_VERSION: JSON.stringify(version) },
});
