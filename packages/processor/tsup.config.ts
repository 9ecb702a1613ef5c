import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { defineConfig } from 'tsup';

// The one place the version is written is package.json; the build puts it into VERSION (src/version.ts).
const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

// uPlot, inlined into the report page (src/report/uplot-source.ts): read here so that `backupstats/report` has no
// dependency at run time. Only the report's chunk refers to it.
const uplot = (file: string): string =>
  readFileSync(createRequire(import.meta.url).resolve(`uplot/dist/${file}`), 'utf8');

/** The entry points: the package's `exports`, one file of src/ each. */
const ENTRY: Record<string, string> = {
  index: 'src/index.ts',
  'setup/index': 'src/setup/index.ts',
  's3/index': 'src/s3/index.ts',
  'http/index': 'src/http/index.ts',
  'azure/index': 'src/azure/index.ts',
  'pushgateway/index': 'src/pushgateway/index.ts',
  'textfile/index': 'src/textfile/index.ts',
  'worker/index': 'src/worker/index.ts',
  'report/index': 'src/report/index.ts',
  'testing/index': 'src/testing/index.ts',
};

/**
 * Writes the declarations of every source file into .types/ with tsc, and returns the entry points' declarations
 * there, which tsup joins into one per entry point. Given the sources themselves, tsup's declaration bundler builds
 * and checks a TypeScript program of its own, which took 18 s of a 23 s build; tsc and the join take 8 s.
 */
function declarations(entry: Record<string, string>): { entry: Record<string, string> } {
  rmSync(new URL('./.types', import.meta.url), { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const flags = ['--declaration', '--emitDeclarationOnly', '--noEmit', 'false', '--outDir', '.types'];
  execFileSync(process.execPath, [tsc, '-p', '.', ...flags], { stdio: 'inherit' });
  const types = Object.entries(entry).map(([name, file]) => [
    name,
    file.replace(/^src\//, '.types/').replace(/\.ts$/, '.d.ts'),
  ]);
  return { entry: Object.fromEntries(types) };
}

export default defineConfig({
  // `setup`, `s3`, `http`, `azure`, `pushgateway`, `textfile`, `worker` and `testing` are entries of their own so that the core
  // (`index`) keeps importing only @opentelemetry/api (`pushgateway` and `textfile` import
  // @opentelemetry/exporter-prometheus, an optional peer),
  // the worker side of the shared memory loads only in workers, and the test doubles stay out of the core.
  entry: ENTRY,
  // The entries share one copy of the core in chunks (for CommonJS too), so that `backupstats/setup` hands out
  // the same objects as `backupstats` (the label constants; `backupstats/setup` and `backupstats/testing` the same noopStats). The chunks the core entry loads import
  // only @opentelemetry/api: test/package/entry-points.test.ts follows them.
  splitting: true,
  // Rollup writes the output: it keeps `import()` of the optional peers as `import()` in CommonJS, where tsup's
  // own CommonJS splitting turns it into `require()` inside a `.then()`, which a bundler cannot treat as optional.
  treeshake: true,
  format: ['esm', 'cjs'],
  dts: declarations(ENTRY),
  clean: true,
  // No source maps: the code ships as written (not minified), so a stack trace's line reads as it is, and maps made
  // two thirds of the package.
  sourcemap: false,
  // `import.meta.url` in the CommonJS files too: base/peer-resolve.ts resolves the optional peers from its own place.
  shims: true,
  target: 'node20',
  platform: 'node',
  define: {
    BACKUPSTATS_PACKAGE_VERSION: JSON.stringify(version),
    BACKUPSTATS_UPLOT_JS: JSON.stringify(uplot('uPlot.iife.min.js')),
    BACKUPSTATS_UPLOT_CSS: JSON.stringify(uplot('uPlot.min.css')),
  },
});
