// @ts-nocheck
// The self-metrics are the library's own: one name per provider and prefix, the same in both namings.

/** The self-metrics' names, after `prefix` (the stats' `metricPrefix`). */
export function selfMetricNames(prefix: string): { readonly invalid: string; readonly scopes: string } {
  return { invalid: `${prefix}backupstats.invalid_measurements`, scopes: `${prefix}backupstats.scopes` };
}
