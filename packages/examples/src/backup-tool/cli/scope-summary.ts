import type { ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { formatBytes, formatRate, formatSeconds } from './format.js';

/** One scope's totals as the OpenTelemetry pipeline holds them. */
export interface SummaryRow {
  readonly family: 'backup' | 'restore';
  readonly component: string;
  readonly implementation: string;
  readonly operation: string;
  readonly operations: number;
  readonly bytes: number;
  readonly seconds: number;
}

// Both namings: otel (`backup.operations`, `backup.bytes`, `backup.time` in s) and vitess (`backup_count`,
// `backup_bytes`, `backup_duration_nanoseconds`), after any prefix.
const METRIC = /(backup|restore)[._](operations|count|bytes|time|duration_nanoseconds)$/;

/** Turns collected metrics into one row per scope, in the order the stages run. */
export function summaryRows(metrics: ResourceMetrics | undefined): SummaryRow[] {
  const rows = new Map<string, { -readonly [K in keyof SummaryRow]: SummaryRow[K] }>();
  for (const scope of metrics?.scopeMetrics ?? []) {
    for (const metric of scope.metrics) {
      const match = METRIC.exec(metric.descriptor.name);
      if (match === null) continue;
      const family = match[1] as SummaryRow['family'];
      const kind = match[2];
      for (const point of metric.dataPoints) {
        if (typeof point.value !== 'number') continue;
        const a = point.attributes;
        const component = String(a.component ?? '-');
        const implementation = String(a.implementation ?? '-');
        const operation = a['otel.metric.overflow'] === true ? '(overflow)' : String(a.operation ?? '-');
        const key = `${family}\0${component}\0${implementation}\0${operation}`;
        let row = rows.get(key);
        if (row === undefined) {
          row = { family, component, implementation, operation, operations: 0, bytes: 0, seconds: 0 };
          rows.set(key, row);
        }
        if (kind === 'operations' || kind === 'count') row.operations += point.value;
        else if (kind === 'bytes') row.bytes += point.value;
        else row.seconds += metric.descriptor.unit === 'ns' ? point.value / 1e9 : point.value;
      }
    }
  }
  return [...rows.values()].sort(
    (x, y) =>
      x.family.localeCompare(y.family) ||
      rank(x.operation) - rank(y.operation) ||
      x.component.localeCompare(y.component),
  );
}

const ORDER = [
  'File:Read',
  'Source:Open',
  'Source:Read',
  'Source:Close',
  'Compressor:Write',
  'Compressor:Close',
  'Decompressor:Read',
  'Decompressor:Close',
  'Destination:Open',
  'Destination:Write',
  'Destination:Close',
  'File:Write',
  'AWS:Request:Send',
  'AWS:Request:Failed',
  'AWS:Request:Throttled',
  'Backup',
  'Restore',
];
function rank(operation: string): number {
  const i = ORDER.indexOf(operation);
  return i === -1 ? ORDER.length : i;
}

/** The rows as an aligned text table: scope, operations, bytes, time, throughput (bytes per second of that time). */
export function formatSummary(rows: readonly SummaryRow[]): string {
  if (rows.length === 0) return '(no measurements were exported)\n';
  const header = ['family', 'component/implementation', 'operation', 'operations', 'bytes', 'time', 'throughput'];
  const body = rows.map((r) => [
    r.family,
    `${r.component}/${r.implementation}`,
    r.operation,
    String(r.operations),
    r.bytes > 0 ? formatBytes(r.bytes) : '-',
    formatSeconds(r.seconds),
    formatRate(r.bytes, r.seconds),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)));
  const numeric = new Set([3, 4, 5, 6]);
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return `${[line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n')}\n`;
}
