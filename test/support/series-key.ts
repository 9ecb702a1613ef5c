/**
 * The one key of a series in the tests' maps of values, whatever backend the value was read from: the metric
 * name and its labels, `backup.bytes{BackupEngine,Builtin,Source:Read}` for a scope (component, implementation,
 * operation), `backup.bytes{overflow}` for the overflow series, `backupstats.scopes{backup}` for a self-metric.
 */
export function seriesKey(name: string, attributes: Readonly<Record<string, unknown>>): string {
  if (attributes['otel.metric.overflow'] === true) return `${name}{overflow}`;
  if ('family' in attributes) return `${name}{${String(attributes.family)}}`;
  return `${name}{${String(attributes.component)},${String(attributes.implementation)},${String(attributes.operation)}}`;
}
