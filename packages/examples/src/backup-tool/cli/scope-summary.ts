import type { Attributes } from '@opentelemetry/api';
import type { ExponentialHistogram, ResourceMetrics } from '@opentelemetry/sdk-metrics';
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
  /** Median and 99th percentile of the operations' durations, from the latency histogram (when it has one). */
  readonly p50Seconds?: number | undefined;
  readonly p99Seconds?: number | undefined;
}

// Both namings: otel (`backup.operations`, `backup.bytes`, `backup.time` in s) and vitess (`backup_count`,
// `backup_bytes`, `backup_duration_nanoseconds`), after any prefix.
const METRIC = /(backup|restore)[._](operations|count|bytes|time|duration_nanoseconds)$/;
// The latency histograms of both namings: `backup.operation.duration`, `backup_operation_duration_seconds`.
const HISTOGRAM = /(backup|restore)[._]operation[._]duration(_seconds)?$/;

/** Turns collected metrics into one row per scope, in the order the stages run. */
export function summaryRows(metrics: ResourceMetrics | undefined): SummaryRow[] {
  const rows = new Map<string, Row>();
  for (const scope of metrics?.scopeMetrics ?? []) {
    for (const metric of scope.metrics) {
      const histogram = HISTOGRAM.exec(metric.descriptor.name);
      if (histogram !== null) {
        for (const point of metric.dataPoints) {
          const row = rowOf(rows, histogram[1] as SummaryRow['family'], point.attributes);
          row.p50Seconds = quantile(point.value, 0.5);
          row.p99Seconds = quantile(point.value, 0.99);
        }
        continue;
      }
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
  return [...rows.values()].sort(
    (x, y) =>
      x.family.localeCompare(y.family) ||
      rank(x.operation) - rank(y.operation) ||
      x.component.localeCompare(y.component),
  );
}

type Row = { -readonly [K in keyof SummaryRow]: SummaryRow[K] };

/** The row of one scope, made on first sight. */
function rowOf(rows: Map<string, Row>, family: SummaryRow['family'], a: Attributes): Row {
  const component = String(a.component ?? '-');
  const implementation = String(a.implementation ?? '-');
  const operation = a['otel.metric.overflow'] === true ? '(overflow)' : String(a.operation ?? '-');
  const key = `${family}\0${component}\0${implementation}\0${operation}`;
  let row = rows.get(key);
  if (row === undefined) {
    row = { family, component, implementation, operation, operations: 0, bytes: 0, seconds: 0 };
    rows.set(key, row);
  }
  return row;
}

/**
 * The `q` quantile of an exponential histogram point (what the summary's reader gets): the geometric middle of
 * the bucket where the cumulative count reaches q of it, within half a bucket (4.5 % at scale 3) of the truth, kept
 * within the point's min and max: a single operation's p50 is its own duration, not its bucket's middle.
 */
function quantile(value: unknown, q: number): number | undefined {
  const point = value as Partial<ExponentialHistogram>;
  if (point.positive === undefined || point.scale === undefined || !point.count) return undefined;
  let cumulative = point.zeroCount ?? 0;
  if (cumulative >= q * point.count) return 0;
  const base = 2 ** (2 ** -point.scale);
  const counts = point.positive.bucketCounts;
  const within = (seconds: number): number => Math.min(Math.max(seconds, point.min ?? seconds), point.max ?? seconds);
  for (let i = 0; i < counts.length; i++) {
    cumulative += counts[i] ?? 0;
    if (cumulative >= q * point.count) return within(base ** (point.positive.offset + i + 0.5));
  }
  return point.max;
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
