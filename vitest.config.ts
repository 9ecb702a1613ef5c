// The whole suite in three tiers (CONTRIBUTING.md, "Tests"), each a vitest project:
// - unit: every in-process test, against the TypeScript source (vitest.unit.config.ts);
// - integration: the built or packed library, child processes, worker threads that load the build;
// - e2e: real servers (Prometheus, Pushgateway, node_exporter, S3), Chromium, the Node 22 / SDK 3.x copies.
// `pnpm test` runs all three; `pnpm test:unit` / `test:integration` / `test:e2e` run one (`--project`).
// Integration and e2e files mostly wait (on child processes, servers and scrapes), not compute, so they run more
// files at once than this machine has cores.
import { defineConfig } from 'vitest/config';

const integration = ['package', 'docs', 'exit', 'workers', 'processes', 'checks'];
const e2e = ['e2e', 'compat', 's3', 'examples'];

export default defineConfig({
  test: {
    projects: [
      './vitest.unit.config.ts',
      {
        test: {
          name: 'integration',
          include: integration.map((folder) => `test/${folder}/**/*.test.ts`),
          maxWorkers: 4,
          sequence: { groupOrder: 1 },
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: [...e2e.map((folder) => `test/${folder}/**/*.test.ts`), 'packages/*/test/**/*.test.ts'],
          maxWorkers: 4,
          sequence: { groupOrder: 1 },
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});
