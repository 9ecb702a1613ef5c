import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  // The command, with the library and the OpenTelemetry packages it loads bundled in: a start-up that resolves and
  // reads a few files rather than two hundred. Each dynamic import stays a chunk of its own (splitting), so a command
  // loads only what it runs: `meter` inside a run never loads the library nor the SDK, and an exporter that is not
  // configured is never read. The dependencies stay in package.json so that an install gets the same versions.
  entry: { cli: 'src/cli.ts', 'meter-worker': 'src/meter-worker.ts' },
  format: ['esm'],
  splitting: true,
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
  // The ES module builds of the OpenTelemetry packages: their CommonJS builds would need `require` in an ES module.
  esbuildOptions(options) {
    options.mainFields = ['module', 'main'];
  },
  esbuildPlugins: [
    {
      // The OpenTelemetry ES module builds `import * as process from 'process'`: Node.js builds that namespace by
      // reading every property of `process`, stdin and stdout included, which opens them as streams and makes a
      // pipe on fd 0 or 1 non-blocking (a meter's blocking copy then meets EAGAIN at every read). The global, in a
      // CommonJS wrapper whose properties the bundle reads only when used, instead.
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
      // The Prometheus exporter ships only CommonJS, and a chunk that an `import()` loads gives a CommonJS module's
      // exports only as `default`: an ES module in front of it names the two exports the library imports.
      name: 'prometheus-exporter-esm',
      setup(build) {
        build.onResolve({ filter: /^@opentelemetry\/exporter-prometheus$/ }, (args) => ({
          path: args.path,
          namespace: 'prometheus-exporter-esm',
          pluginData: { resolveDir: dirname(args.importer) },
        }));
        build.onLoad({ filter: /.*/, namespace: 'prometheus-exporter-esm' }, (args) => ({
          contents:
            "export { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus/build/src/index.js';",
          resolveDir: (args.pluginData as { resolveDir: string }).resolveDir,
          loader: 'js',
        }));
        // Its `require('@opentelemetry/semantic-conventions')` would bring the whole CommonJS build (200 KB): an ES
        // module that re-exports the names the requiring file uses lets the bundler keep just those.
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
  // `require` for the packages that ship only CommonJS (the Prometheus exporter): their `require('http')` needs it.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
  },
  define: { BACKUPSTATS_CLI_VERSION: JSON.stringify(version) },
});
