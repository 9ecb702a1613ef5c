// The in-process tests, run against the library's TypeScript source instead of its build, for StrykerJS
// (`pnpm test:mutation`): Stryker mutates the source, so the tests must load the source. Left out: tests that
// start child processes or servers (a child loads the unmutated build; they are slow; the S3 tests need an S3
// server), the import-cycle and docs-links tests (they read files that no mutant changes), and the property test
// (random inputs would make a mutant's fate vary from run to run, and its 12 s would be paid by every mutant it
// covers, which is all of them). A hung test fails after testTimeout, well before Stryker's own timeout, so a
// mutant that stalls a stream counts as killed without restarting a worker.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (file: string): string => fileURLToPath(new URL(`./packages/processor/src/${file}`, import.meta.url));

// As the build does (packages/processor/tsup.config.ts): src/version.ts reads the version from this constant.
const { version } = JSON.parse(readFileSync(source('../package.json'), 'utf8')) as { version: string };

export default defineConfig({
  define: { BACKUPSTATS_PACKAGE_VERSION: JSON.stringify(version) },
  resolve: {
    alias: [
      { find: /^backupstats$/, replacement: source('index.ts') },
      { find: /^backupstats\/(setup|s3)$/, replacement: source('$1/index.ts') },
    ],
  },
  test: {
    include: [
      'test/*.test.ts',
      'test/core/**/*.test.ts',
      'test/validation/**/*.test.ts',
      'test/io/**/*.test.ts',
      'test/runs/**/*.test.ts',
    ],
    exclude: [
      'test/api-oldest.test.ts',
      'test/bundle-esbuild.test.ts',
      'test/docs-links.test.ts',
      'test/docs-typecheck.test.ts',
      'test/e2e-*.test.ts',
      'test/example-*.test.ts',
      'test/exit-*.test.ts',
      'test/import-cycles.test.ts',
      'test/nodesdk.test.ts',
      'test/package-contents.test.ts',
      'test/runs-exit.test.ts',
      'test/runs-prometheus.test.ts',
      'test/s3-*.test.ts',
      // setup-env-invalid stays: set-up errors in process, the core's option rules (option-rules.ts) among them.
      'test/setup-env.test.ts',
      'test/setup-exit.test.ts',
      'test/setup-export.test.ts',
      'test/setup-packaging.test.ts',
      'test/setup-prometheus.test.ts',
      'test/property.test.ts',
    ],
    testTimeout: 5_000,
    hookTimeout: 10_000,
  },
});
