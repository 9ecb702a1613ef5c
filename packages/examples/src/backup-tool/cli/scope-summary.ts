import type { Attributes } from '@opentelemetry/api';
import type { ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReportSeries } from 'backupstats/report';
import { formatBytes, formatRate, formatSeconds } from './format.js';

/** One scope's totals as the OpenTelemetry pipeline holds them. */
export interface SummaryRow {
  readonly family: 'backup' | 'restore' | 'verify' | 'prune';
  readonly component: string;
  readonly implementation: string;
  readonly operation: string;
  readonly operations: number;
  readonly bytes: number;
  readonly seconds: number;
  /**
   * Median and 99th percentile of the operations' durations, the report's own figures (when the series keeps a
   * latency histogram): one estimator for the summary and the page.
   */
  readonly p50Seconds?: number | undefined;
  readonly p99Seconds?: number | undefined;
}

// Both namings: otel (`backup.operations`, `backup.bytes`, `backup.time` in s) and vitess (`backup_count`,
// `backup_bytes`, `backup_duration_nanoseconds`), after any prefix.
const METRIC = /(backup|restore|verify|prune)[._](operations|count|bytes|time|duration_nanoseconds)$/;
/**
 * Turns collected metrics into one row per scope, in the order the stages run; each row's quantiles are those of
 * the report's series of the same labels (`reportData(stats).series`).
 */
export function summaryRows(metrics: ResourceMetrics | undefined, series: readonly ReportSeries[] = []): SummaryRow[] {
  const rows = new Map<string, Row>();
  for (const scope of metrics?.scopeMetrics ?? []) {
    for (const metric of scope.metrics) {
      const match = METRIC.exec(metric.descriptor.name);
      if (match === null) continue;
      const family = match[1] as SummaryRow['family'];
      const kind = match[2];
      for (const point of metric.dataPoints) {
        if (typeof point.value !== 'number') continue;
        const row = rowOf(rows, family, point.attributes);
        if (kind === 'operations' || kind === 'count') row.operations += point.value;
        else if (kind === 'bytes') row.bytes += point.value;
        else row.seconds += metric.descriptor.unit === 'ns' ? point.value / 1e9 : point.value;
      }
    }
  }
  for (const s of series) {
    if (s.p50 === null) continue;
    // The report names every label of the overflow series `overflow`; the summary, the labels it was exported with.
    const row = rows.get(
      s.overflow
        ? keyOf(s.family, '-', '-', '(overflow)')
        : keyOf(s.family, s.component, s.implementation, s.operation),
    );
    if (row === undefined) continue;
    row.p50Seconds = s.p50;
    row.p99Seconds = s.p99 ?? undefined;
  }
  return [...rows.values()].sort(
    (x, y) =>
      x.family.localeCompare(y.family) ||
      rank(x.operation) - rank(y.operation) ||
      x.component.localeCompare(y.component),
  );
}

function keyOf(family: string, component: string, implementation: string, operation: string): string {
  return `${family}\0${component}\0${implementation}\0${operation}`;
}

type Row = { -readonly [K in keyof SummaryRow]: SummaryRow[K] };

/** The row of one scope, made on first sight. */
function rowOf(rows: Map<string, Row>, family: SummaryRow['family'], a: Attributes): Row {
  const component = String(a.component ?? '-');
  const implementation = String(a.implementation ?? '-');
  const operation = a['otel.metric.overflow'] === true ? '(overflow)' : String(a.operation ?? '-');
  const key = keyOf(family, component, implementation, operation);
  let row = rows.get(key);
  if (row === undefined) {
    row = { family, component, implementation, operation, operations: 0, bytes: 0, seconds: 0 };
    rows.set(key, row);
  }
  return row;
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
  'HTTP:Request:Send',
  'HTTP:Request:Failed',
  'HTTP:Request:Throttled',
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
  const header = [
    'family',
    'component/implementation',
    'operation',
    'operations',
    'bytes',
    'time',
    'throughput',
    'p50',
    'p99',
  ];
  const body = rows.map((r) => [
    r.family,
    `${r.component}/${r.implementation}`,
    r.operation,
    String(r.operations),
    r.bytes > 0 ? formatBytes(r.bytes) : '-',
    formatSeconds(r.seconds),
    formatRate(r.bytes, r.seconds),
    r.p50Seconds === undefined ? '-' : formatSeconds(r.p50Seconds),
    r.p99Seconds === undefined ? '-' : formatSeconds(r.p99Seconds),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)));
  const numeric = new Set([3, 4, 5, 6, 7, 8]);
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return `${[line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n')}\n`;
}
