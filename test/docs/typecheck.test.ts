import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNode } from '@backupstats/testkit/node-process';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';

// scripts/check-docs-types.mjs, which `pnpm typecheck` runs on every README and docs page, on pages of the test's
// own: it must fail on a block that does not compile against the built package, at the Markdown line.
const root = fileURLToPath(new URL('../..', import.meta.url));
const script = join(root, 'scripts', 'check-docs-types.mjs');
const pages = fileURLToPath(new URL('../fixtures/check-docs-pages.mjs', import.meta.url));

/** What the command exits with and writes, run on one page. */
interface Checked {
  readonly page: string;
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'backupstats-docs-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writePage(name: string, lines: readonly string[]): string {
  const page = join(dir, name);
  writeFileSync(page, lines.join('\n'));
  return page;
}

/** The command itself, as `node scripts/check-docs-types.mjs page.md` runs it. */
async function check(page: string): Promise<Checked> {
  const run = startNode([script, page], { cwd: root });
  onTestFinished(() => run.kill());
  const { code } = await run.exited;
  return { page, status: code, stdout: run.stdout(), stderr: run.stderr() };
}

/**
 * The command's `main` run on each page in turn, in one process (test/fixtures/check-docs-pages.mjs): each page's
 * exit code and output are those of the command run on that page alone, and TypeScript with the declarations all
 * pages read is loaded once, not once for each page.
 */
async function checkEach(...paths: string[]): Promise<Checked[]> {
  const run = startNode([pages, ...paths], { cwd: root });
  onTestFinished(() => run.kill());
  const { code } = await run.exited;
  expect(code, run.stderr()).toBe(0);
  const results = run
    .stdout()
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Checked);
  expect(results.map((result) => result.page)).toEqual(paths);
  return results;
}

/** A page with a block that does not compile (line 10), a marked fragment and a shell block. */
const FAILING = [
  '# Page', // 1
  '', // 2
  '```ts', // 3
  "import { metrics } from '@opentelemetry/api';", // 4
  "import { NodeSDK } from '@opentelemetry/sdk-node';", // 5
  "import { startBackupStats } from 'backupstats/setup';", // 6
  'const sdk = new NodeSDK();', // 7
  'sdk.start();', // 8
  'await startBackupStats({ meterProvider: metrics.getMeterProvider() });', // 9
  'await startBackupStats({ meterProvider: sdk.meterProvider });', // 10
  '```', // 11
  '', // 12
  '<!-- typecheck: skip (a signature, not code) -->', // 13
  '```ts', // 14
  'function startBackupStats(options?: StartBackupStatsOptions): Promise<StartedBackupStats>;', // 15
  '```', // 16
  '', // 17
  '```sh', // 18
  'npm install backupstats', // 19
  '```', // 20
  '',
];

/** A page whose one block compiles. */
const PASSING = [
  '```ts',
  "import { noopStats } from 'backupstats/testing';",
  'noopStats.scope({ operation: "x" }).timedIncrement(1);',
  '```',
  '',
];

/** The failing and the passing page, each checked on its own, in one process (both tests read the one run). */
let checked: Promise<{ failing: Checked; passing: Checked }> | undefined;
const pageResults = () =>
  (checked ??= checkEach(writePage('page.md', FAILING), writePage('passing.md', PASSING)).then(
    ([failing, passing]) => ({ failing: failing as Checked, passing: passing as Checked }),
  ));

describe('the type check of the docs examples', () => {
  it('reports a block that does not compile at its Markdown line, and skips only a marked fragment', async () => {
    const result = (await pageResults()).failing;
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/page\.md:10:\d+ error TS2339: Property 'meterProvider' does not exist on type 'NodeSDK'/),
    ]);
    expect(result.stdout).toContain(
      '1 TypeScript blocks of 1 Markdown files type-checked against the built package (1 skipped',
    );
  });

  it('passes a page whose blocks compile, and leaves no generated file behind', async () => {
    const result = (await pageResults()).passing;
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(': no errors');
    expect(readdirSync(root).filter((name) => name.startsWith('.docs-typecheck'))).toEqual([]);
  });

  it('rejects a skip marker without a reason', async () => {
    const result = await check(writePage('unmarked.md', ['<!-- typecheck: skip -->', '```ts', 'x', '```', '']));
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('write the marker as <!-- typecheck: skip (why this block is a fragment) -->');
  });
});
