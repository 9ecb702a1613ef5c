#!/usr/bin/env node
// Runs the whole vitest suite and ends with the plain line "N passed, N failed" (", N skipped" when some
// were skipped), counted from vitest's JSON report rather than scraped from its console output.
// Extra arguments are passed to vitest (for example a file filter).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const report = join(root, '.vitest-results.json');
rmSync(report, { force: true });

// Node 20 reads and parses every certificate of NODE_EXTRA_CA_CERTS as it starts: some 50 ms of CPU where the file
// is the system's bundle, in each of the suite's hundreds of Node processes (vitest's workers, the tests' children).
// Of those, only npm reaching the registry needs the certificates: the suite runs without the variable and keeps
// its value in TEST_NODE_EXTRA_CA_CERTS, which registryEnv() (packages/testkit) gives back to npm
// as NODE_EXTRA_CA_CERTS.
const { NODE_EXTRA_CA_CERTS: extraCaCerts, ...suiteEnv } = process.env;
const env = extraCaCerts === undefined ? process.env : { ...suiteEnv, TEST_NODE_EXTRA_CA_CERTS: extraCaCerts };

const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const run = spawnSync(
  process.execPath,
  [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env },
);

if (!existsSync(report)) {
  console.log('0 passed, 1 failed');
  console.error(`vitest wrote no report (exit ${run.status ?? run.signal})`);
  process.exit(1);
}
const results = JSON.parse(readFileSync(report, 'utf8'));
const passed = results.numPassedTests;
// A suite that failed to load has no failed test but must still count as a failure.
const failed = results.numFailedTests + (results.numFailedTestSuites > 0 && results.numFailedTests === 0 ? 1 : 0);
const skipped = results.numPendingTests + results.numTodoTests;
console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || run.status !== 0 ? 1 : 0);
