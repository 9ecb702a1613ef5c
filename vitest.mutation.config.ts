// The in-process tests, run against the library's TypeScript source instead of its build, for StrykerJS
// (`pnpm test:mutation`): Stryker mutates the source, so the tests must load the source. They are chosen by folder,
// not by file: test/core, test/validation (with set-up's variable errors, which go through the core's option
// rules), test/io, test/runs, test/histograms and test/worker-protocol. Left out, by folder: tests that start child
// processes or servers (a child loads the unmutated build; they are slow; the S3 tests need an S3 server): compat, e2e,
// examples, exit, s3, setup; the built package and the docs, which no mutant changes: package, docs; property (random
// inputs would make a mutant's fate vary from run to run, and its 12 s would be paid by every mutant it covers, which
// is all of them; the 1000 seeded runs of timing-bias.test.ts, 17 s here, would be paid by some 320); and workers,
// whose threads load the BUILT library, as users' do. test/worker-protocol connects to links on the main thread, and
// its few threads load the SOURCE through tsx (told where by the variables below) with the mutant this process runs
// (test/support/workers.ts), so a mutant runs on both sides of the shared memory.
// So a new test goes in an included folder only if it runs in process (core/shutdown.test.ts's one child, which
// checks that the flush timer lets a process exit, is the exception that was already there). A hung test fails
// after testTimeout, well before Stryker's own timeout, so a mutant that stalls a stream counts as killed without
// restarting a worker.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (file: string): string => fileURLToPath(new URL(`./packages/processor/src/${file}`, import.meta.url));

// As the build does (packages/processor/tsup.config.ts): src/version.ts reads the version from this constant.
const { version } = JSON.parse(readFileSync(source('../package.json'), 'utf8')) as { version: string };
// As the build does too: src/report/uplot-source.ts reads uPlot's script and style sheet from these constants.
const uplot = (file: string): string =>
  JSON.stringify(readFileSync(createRequire(source('../package.json')).resolve(`uplot/dist/${file}`), 'utf8'));

export default defineConfig({
  define: {
    BACKUPSTATS_PACKAGE_VERSION: JSON.stringify(version),
    BACKUPSTATS_UPLOT_JS: uplot('uPlot.iife.min.js'),
    BACKUPSTATS_UPLOT_CSS: uplot('uPlot.min.css'),
  },
  resolve: {
    alias: [
      { find: /^backupstats$/, replacement: source('index.ts') },
      {
        find: /^backupstats\/(setup|s3|worker|testing|pushgateway|textfile|report)$/,
        replacement: source('$1/index.ts'),
      },
    ],
  },
  test: {
    include: [
      'test/core/**/*.test.ts',
      'test/validation/**/*.test.ts',
      'test/io/**/*.test.ts',
      'test/runs/**/*.test.ts',
      'test/histograms/**/*.test.ts',
      'test/worker-protocol/**/*.test.ts',
    ],
    // The source the worker threads of test/worker-protocol load (test/support/workers.ts), so that they run the
    // mutant this process runs.
    env: {
      BACKUPSTATS_SOURCE_CORE: source('index.ts'),
      BACKUPSTATS_SOURCE_WORKER: source('worker/index.ts'),
      BACKUPSTATS_SOURCE_VERSION: version,
    },
    testTimeout: 5_000,
    hookTimeout: 10_000,
  },
});
