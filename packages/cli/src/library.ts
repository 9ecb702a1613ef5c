// The library and the OpenTelemetry SDK, as the command uses them. The build makes this file a bundle of its own that
// the command requires only when it builds stats (`run`, and a `meter` outside a run): a meter inside a run, which
// only reports to its run, starts without reading it.
export { createBackupStats, RunFailure } from 'backupstats';
export { startBackupStats } from 'backupstats/setup';
