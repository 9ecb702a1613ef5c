import { Component, Implementation, Operation, type Stats, trackRun } from 'backupstats';
import { removeStorage, type StorageLocation, storageSize } from '../storage/storage-location.js';

/** What a prune did: the backups it deleted, the bytes they took, and the backups it kept (newest last). */
export interface PruneResult {
  readonly deleted: number;
  readonly bytes: number;
  readonly kept: readonly StorageLocation[];
}

/**
 * Deletes all but the newest `keep` of `backups` (oldest first), as a prune run: each deletion is a Prune:Delete
 * under BackupStorage (File, S3 or Azure) with the bytes it freed, so that the prune family's bytes of Prune:Delete are the
 * bytes reclaimed, and the run's bytes are this prune's.
 */
export function pruneBackups(backups: readonly StorageLocation[], keep: number, prune: Stats): Promise<PruneResult> {
  const kind = backups[0]?.kind;
  const implementation =
    kind === 's3' ? Implementation.S3 : kind === 'azure' ? Implementation.Azure : Implementation.File;
  const labels = { component: Component.BackupStorage, implementation };
  // The first value set for a label wins: each handle is taken from the family with all its labels.
  const run = prune.scope({ ...labels, operation: Operation.Prune });
  const deletes = prune.scope({ ...labels, operation: Operation.PruneDelete });
  const expired = backups.slice(0, Math.max(0, backups.length - keep));
  return trackRun(
    run,
    async () => {
      let bytes = 0;
      for (const backup of expired) {
        const started = performance.now();
        const size = await storageSize(backup);
        await removeStorage(backup);
        deletes.timedIncrementBytes(size, performance.now() - started);
        bytes += size;
      }
      return { deleted: expired.length, bytes, kept: backups.slice(expired.length) };
    },
    { bytes: (result) => result.bytes },
  );
}
