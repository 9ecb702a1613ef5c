/**
 * What `stats.workerLink()` returns: pass it to worker threads in `workerData` or `postMessage` (it is
 * structured-clonable and needs no transfer list), where `connectBackupStats(link)` from `backupstats/worker`
 * records into it. It carries the shared memory the main thread allocated and reads at its flushes; what it holds
 * besides its mark is internal, and may change in any release.
 */
export interface WorkerLink {
  /** Marks a link, for the check of `connectBackupStats`. */
  readonly backupstatsWorkerLink: 1;
}

/** Options of `stats.workerLink()`. */
export interface WorkerLinkOptions {
  /**
   * Worker threads that record through the link at the same time (default 128, enough for a pool on a machine of
   * 85 cores; up to 1024): each takes a place of its own. A place no worker took costs a page (4 KiB) of resident
   * memory, not its size. A place is free again when its worker calls `close()` or ends (a worker stopped by
   * `terminate()` is found gone by the next worker that looks for a place), and the next worker goes on with the
   * same numbers.
   */
  readonly workers?: number | undefined;
  /**
   * Label combinations each worker keeps per family, its overflow series included (default 256): past them, a
   * worker records into its overflow series, as the main thread does past `maxScopes`.
   */
  readonly maxScopes?: number | undefined;
}
