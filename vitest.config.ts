// The whole suite in three tiers (CONTRIBUTING.md, "Tests"), each a vitest project:
// - unit: every in-process test, against the TypeScript source (vitest.unit.config.ts);
// - integration: the built or packed library, child processes, worker threads that load the build;
// - e2e: real servers (Prometheus, Pushgateway, node_exporter, S3, Azurite, local HTTPS storages), Chromium, the Node 22 / SDK 3.x copies.
// `pnpm test` runs all three; `pnpm test:unit` / `test:integration` / `test:e2e` run one (`--project`).
// Integration and e2e files spend much of their time waiting (on child processes, servers and scrapes), so they run
// more files at once than this machine has cores; on two cores the whole suite is then bound by its CPU work.
// Their files share each worker's loaded modules (isolate: false), as the unit tier's do: loading vitest, the built
// library and the SDK anew for every file cost about 35 s of CPU over the two tiers. A file leaves no state behind
// (its servers, children and temporary folders end with it; onTestFinished and the fixtures see to that).
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const integration = ['package', 'docs', 'exit', 'workers', 'processes', 'checks'];
const e2e = ['e2e', 'compat', 's3', 'azure', 'examples'];

/**
 * The files that take longest, slowest first: they start first, so that none of them is the run's tail, and those
 * that mostly wait (on the registry, on Prometheus' scrapes) wait beside the others' work. vitest orders by the last
 * run's durations when it has them, and a fresh clone has none.
 */
const SLOW_FIRST = [
  'test/checks/install.test.ts',
  'test/checks/bench.test.ts',
  'test/checks/typecheck.test.ts',
  'test/e2e/prometheus.test.ts',
  'test/e2e/progress-prometheus.test.ts',
  'test/examples/alerts.test.ts',
  'test/checks/lint-and-api.test.ts',
  'test/docs/doc-programs.test.ts',
  'test/examples/errors.test.ts',
  'test/compat/sdk3.test.ts',
  'test/e2e/textfile-crash.test.ts',
  'test/examples/s3.test.ts',
  'packages/cli/test/meter.test.ts',
];

class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = SLOW_FIRST.findIndex((path) => file.moduleId.endsWith(path));
      return at === -1 ? SLOW_FIRST.length : at;
    };
    const order = new Map(sorted.map((file, index) => [file, index]));
    return sorted.sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        rank(a) - rank(b) ||
        (order.get(a) ?? 0) - (order.get(b) ?? 0),
    );
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: SlowFirst },
    projects: [
      // In the whole suite the unit tier shares the other tiers' pool: alone it left a core idle part of its time.
      { extends: './vitest.unit.config.ts', test: { maxWorkers: 4, sequence: { groupOrder: 1 } } },
      {
        test: {
          name: 'integration',
          include: integration.map((folder) => `test/${folder}/**/*.test.ts`),
          maxWorkers: 4,
          isolate: false,
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
          isolate: false,
          sequence: { groupOrder: 1 },
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});
