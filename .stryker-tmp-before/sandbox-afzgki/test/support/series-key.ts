/**
 * The one key of a series in the tests' maps of values, whatever backend the value was read from: the metric
 * name and its labels, `backup.bytes{BackupEngine,Builtin,Source:Read}` for a scope (component, implementation,
 * operation), `backup.bytes{overflow}` for the overflow series, `backupstats.scopes{backup}` for a self-metric.
 */
// @ts-nocheck

export function seriesKey(name: string, attributes: Readonly<Record<string, unknown>>): string {
  if (attributes['otel.metric.overflow'] === true) return `${name}{overflow}`;
  if ('family' in attributes) return `${name}{${String(attributes.family)}}`;
  return `${name}{${String(attributes.component)},${String(attributes.implementation)},${String(attributes.operation)}}`;
}

/**
 * The key of a run series, which more attributes than a scope's tell apart (`outcome`, `error.type`, the reason),
 * all of which seriesKey leaves out: `name{k=v,…}` with every attribute, sorted by key, e.g.
 * `backup.runs{component=C,…,outcome=success}`.
 */
export function runKey(name: string, attributes: Readonly<Record<string, unknown>>): string {
  const pairs = Object.entries(attributes)
    .map(([key, value]) => `${key}=${String(value)}`)
    .sort();
  return `${name}{${pairs.join(',')}}`;
}
