// @ts-nocheck
import { startBackupStats } from 'backupstats/setup';

/**
 * The error `startBackupStats({ env })` rejects with. Stats it accepts are shut down, and the test fails naming the
 * variables that should have been refused; a rejection that is not an `Error` fails it too.
 */
export async function setUpError(env: Record<string, string>): Promise<Error> {
  let stats: Awaited<ReturnType<typeof startBackupStats>>;
  try {
    stats = await startBackupStats({ env });
  } catch (error) {
    if (error instanceof Error) return error;
    throw error;
  }
  await stats.shutdown();
  throw new Error(`startBackupStats accepted ${JSON.stringify(env)}`);
}
