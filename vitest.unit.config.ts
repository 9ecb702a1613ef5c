// The unit tier (`pnpm test:unit`): every in-process test, run against the library's TypeScript source with no
// build, so an edit is tested at once. StrykerJS (`pnpm test:mutation`) runs the same configuration, since it
// mutates the source. A test belongs here only if it runs in this process: no child process, no server binary, no
// browser, and no worker thread that loads the build. test/worker-protocol's threads load the source through tsx
// (told where by the variables below), so a mutant runs on both sides of the shared memory.
// Under Stryker (BACKUPSTATS_MUTATION=1, set by scripts/test-mutation.mjs) test/property is left out: its random
// inputs would make a mutant's fate vary between runs, and its seconds would be paid by every mutant it covers. So is
// the timeline's memory bound (100,000 flushes, seconds of work): it covers every mutant of the timeline and the
// report, and what it pins there (the samples halved, the totals exact) is pinned by fast tests of test/report too.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineProject } from 'vitest/config';

const source = (file: string): string => fileURLToPath(new URL(`./packages/processor/src/${file}`, import.meta.url));

// As the build does (packages/processor/tsup.config.ts): src/version.ts reads the version from this constant.
const { version } = JSON.parse(readFileSync(source('../package.json'), 'utf8')) as { version: string };
// As the build does too: src/report/uplot-source.ts reads uPlot's script and style sheet from these constants.
const uplot = (file: string): string =>
  JSON.stringify(readFileSync(createRequire(source('../package.json')).resolve(`uplot/dist/${file}`), 'utf8'));

const mutation = process.env.BACKUPSTATS_MUTATION === '1';

/** The folders of the unit tier; CONTRIBUTING.md says which test goes where. */
export const unitFolders = [
  'core',
  'validation',
  'io',
  'runs',
  'histograms',
  'worker-protocol',
  'report',
  'setup',
  'http',
  ...(mutation ? [] : ['property']),
];

export default defineProject({
  define: {
    BACKUPSTATS_PACKAGE_VERSION: JSON.stringify(version),
    BACKUPSTATS_UPLOT_JS: uplot('uPlot.iife.min.js'),
    BACKUPSTATS_UPLOT_CSS: uplot('uPlot.min.css'),
  },
  resolve: {
    alias: [
      { find: /^backupstats$/, replacement: source('index.ts') },
      {
        find: /^backupstats\/(setup|s3|http|azure|worker|testing|pushgateway|textfile|report)$/,
        replacement: source('$1/index.ts'),
      },
    ],
  },
  test: {
    name: 'unit',
    include: unitFolders.map((folder) => `test/${folder}/**/*.test.ts`),
    exclude: [...configDefaults.exclude, ...(mutation ? ['test/report/timeline-bound.test.ts'] : [])],
    env: {
      BACKUPSTATS_SOURCE_CORE: source('index.ts'),
      BACKUPSTATS_SOURCE_WORKER: source('worker/index.ts'),
      BACKUPSTATS_SOURCE_VERSION: version,
    },
    // A unit test answers in milliseconds; one that needs longer says so on itself, with the reason. A hung test
    // then fails well before Stryker's own timeout, so a mutant that stalls a stream counts as killed.
    // The files of a worker share one process and its loaded modules: each file loading the library and the SDK
    // anew cost four times the tests' own time. So a test leaves no state behind (onTestFinished, the fixtures), and
    // a file that needs the library's module state fresh (a warning said once per thread) re-imports it after
    // vi.resetModules().
    isolate: false,
    // In-process tests compute: one file per core. The whole suite (vitest.config.ts) runs them in the other tiers'
    // pool instead, where they fill the time those tiers' files wait.
    maxWorkers: 2,
    sequence: { groupOrder: 0 },
    testTimeout: 5_000,
    hookTimeout: 10_000,
  },
});
