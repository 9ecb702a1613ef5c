/** The instrumentation scope name under which backupstats creates its Meter. */
export const METER_NAME = 'backupstats';

/** Replaced by package.json's `version` when tsup builds the package (see tsup.config.ts). */
declare const BACKUPSTATS_PACKAGE_VERSION: string;

/** This package's version (package.json's, set at build time), reported as the instrumentation scope version. */
export const VERSION: string = BACKUPSTATS_PACKAGE_VERSION;
