// @ts-nocheck
import { expect } from 'vitest';
import { readRuns } from '../../packages/examples/test-support/run-cli.js';

/** The demo's `--summary-json` counts exactly one run: a failed `family` run (the whole Backup or Restore) for `reason`. */
export async function expectFailedRun(summary: string, family: 'backup' | 'restore', reason: string): Promise<void> {
  const operation = family === 'backup' ? 'Backup' : 'Restore';
  expect(await readRuns(summary)).toEqual([
    { family, component: 'BackupEngine', implementation: 'Builtin', operation, outcome: 'failure', reason, runs: 1 },
  ]);
}
