/** The instrumentation scope name under which backupstats creates its Meter. */
export const METER_NAME = 'backupstats';

/** This package's version, reported as the instrumentation scope version. */
export const VERSION = '0.1.0';
