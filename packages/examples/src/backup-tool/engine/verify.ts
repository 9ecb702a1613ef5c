import { Component, Implementation, Operation, RunFailure, type Stats, timeAsync, trackRun } from 'backupstats';
import { ExitCode, ToolError } from '../errors.js';
import { listTree } from '../files/tree.js';
import type { Manifest } from './manifest.js';

/** What a verification found: the files and bytes of the restored tree, all of them as the manifest lists. */
export interface VerifyResult {
  readonly files: number;
  readonly bytes: number;
}

/**
 * Verifies a restored tree against the backup's manifest, as a verify run of its own (a restore drill): each
 * file's size and sha256 were checked while it was restored, and the tree must hold nothing else. The whole
 * Verify is metered under BackupEngine/Builtin with the bytes verified, and tracked as a run; a tree that differs is
 * a failure of reason corrupted.
 */
export function verifyRestored(target: string, manifest: Manifest, verify: Stats): Promise<VerifyResult> {
  const scope = verify.scope({
    component: Component.BackupEngine,
    implementation: Implementation.Builtin,
    operation: Operation.Verify,
  });
  return trackRun(
    scope,
    () =>
      timeAsync(
        scope,
        async () => {
          const tree = await listTree(target);
          const bytes = manifest.files.reduce((sum, file) => sum + file.size, 0);
          if (tree.files.length !== manifest.files.length || tree.bytes !== bytes) {
            throw new ToolError(
              `verification failed: ${target} holds ${tree.files.length} files, ${tree.bytes} bytes; the manifest lists ${manifest.files.length} files, ${bytes} bytes`,
              ExitCode.Corrupted,
            );
          }
          return { files: tree.files.length, bytes: tree.bytes };
        },
        { bytes: (result) => result.bytes },
      ),
    { bytes: (result) => result.bytes, reason: () => RunFailure.Corrupted },
  );
}
