import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNode } from '@backupstats/testkit/node-process';
import { describe, expect, it, onTestFinished } from 'vitest';

// scripts/check-docs-types.mjs, which `pnpm typecheck` runs on every README and docs page, on a page of the
// test's own: it must fail on a block that does not compile against the built package, at the Markdown line.
const root = fileURLToPath(new URL('../..', import.meta.url));
const script = join(root, 'scripts', 'check-docs-types.mjs');

async function check(markdown: string) {
  const dir = mkdtempSync(join(tmpdir(), 'backupstats-docs-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const page = join(dir, 'page.md');
  writeFileSync(page, markdown);
  const run = startNode([script, page], { cwd: root });
  onTestFinished(() => run.kill());
  const { code } = await run.exited;
  return { page, status: code, stdout: run.stdout(), stderr: run.stderr() };
}

describe('the type check of the docs examples', () => {
  it('reports a block that does not compile at its Markdown line, and skips only a marked fragment', async () => {
    const result = await check(
      [
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
      ].join('\n'),
    );
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/page\.md:10:\d+ error TS2339: Property 'meterProvider' does not exist on type 'NodeSDK'/),
    ]);
    expect(result.stdout).toContain(
      '1 TypeScript blocks of 1 Markdown files type-checked against the built package (1 skipped',
    );
  });

  it('passes a page whose blocks compile, and leaves no generated file behind', async () => {
    const result = await check(
      [
        '```ts',
        "import { noopStats } from 'backupstats/testing';",
        'noopStats.scope({ operation: "x" }).timedIncrement(1);',
        '```',
        '',
      ].join('\n'),
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(': no errors');
    expect(readdirSync(root).filter((name) => name.startsWith('.docs-typecheck'))).toEqual([]);
  });

  it('rejects a skip marker without a reason', async () => {
    const result = await check(['<!-- typecheck: skip -->', '```ts', 'x', '```', ''].join('\n'));
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('write the marker as <!-- typecheck: skip (why this block is a fragment) -->');
  });
});
