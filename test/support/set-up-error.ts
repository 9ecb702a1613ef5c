import { startBackupStats } from 'backupstats/setup';
import { expectDocumentedCode } from './error-codes.js';

/**
 * The error `startBackupStats({ env })` rejects with. Stats it accepts are shut down, and the test fails naming the
 * variables that should have been refused; a rejection that is not an `Error`, or has no code of docs/errors.md,
 * fails it too.
 */
export async function setUpError(env: Record<string, string>): Promise<Error> {
  let stats: Awaited<ReturnType<typeof startBackupStats>>;
  try {
    stats = await startBackupStats({ env });
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    expectDocumentedCode(error);
    return error;
  }
  await stats.shutdown();
  throw new Error(`startBackupStats accepted ${JSON.stringify(env)}`);
}
