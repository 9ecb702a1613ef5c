// The in-process tests, run against the library's TypeScript source instead of its build, for StrykerJS
// (`pnpm test:mutation`): Stryker mutates the source, so the tests must load the source. Tests that start
// child processes or servers are left out: a child loads the unmutated build, and they are slow.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (file: string): string => fileURLToPath(new URL(`./packages/processor/src/${file}`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^backupstats$/, replacement: source('index.ts') },
      { find: /^backupstats\/setup$/, replacement: source('setup/index.ts') },
    ],
  },
  test: {
    include: ['test/*.test.ts'],
    exclude: ['test/e2e-*.test.ts', 'test/example-*.test.ts', 'test/setup-*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
