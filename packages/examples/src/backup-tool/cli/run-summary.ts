import type { ResourceMetrics } from '@opentelemetry/sdk-metrics';

/** How many runs of one scope ended with one outcome (and reason), as the OpenTelemetry pipeline holds them. */
export interface RunRow {
  readonly family: 'backup' | 'restore' | 'verify' | 'prune';
  readonly component: string;
  readonly implementation: string;
  readonly operation: string;
  readonly outcome: string;
  /** The failure's reason; `-` for successes. */
  readonly reason: string;
  readonly runs: number;
}

// Both namings, every family: otel `backup.runs` (reason in `error.type`), vitess `backup_run_count` (reason in
// `reason`).
const METRIC = /(backup|restore|verify|prune)(?:\.runs|_run_count)$/;

/** The run counters' series that counted at least one run (every series exists from the first run on, at 0). */
export function runRows(metrics: ResourceMetrics | undefined): RunRow[] {
  const rows: RunRow[] = [];
  for (const scope of metrics?.scopeMetrics ?? []) {
    for (const metric of scope.metrics) {
      const family = METRIC.exec(metric.descriptor.name)?.[1] as RunRow['family'] | undefined;
      if (family === undefined) continue;
      for (const point of metric.dataPoints) {
        if (typeof point.value !== 'number' || point.value === 0) continue;
        const a = point.attributes;
        rows.push({
          family,
          component: String(a.component ?? '-'),
          implementation: String(a.implementation ?? '-'),
          operation: a['otel.metric.overflow'] === true ? '(overflow)' : String(a.operation ?? '-'),
          outcome: String(a.outcome),
          reason: String(a['error.type'] ?? a.reason ?? '-'),
          runs: point.value,
        });
      }
    }
  }
  return rows.sort(
    (x, y) =>
      x.family.localeCompare(y.family) || x.outcome.localeCompare(y.outcome) || x.reason.localeCompare(y.reason),
  );
}

/** The rows as an aligned text table. */
export function formatRuns(rows: readonly RunRow[]): string {
  if (rows.length === 0) return '(no run ended)\n';
  const header = ['family', 'component/implementation', 'operation', 'outcome', 'reason', 'runs'];
  const body = rows.map((r) => [
    r.family,
    `${r.component}/${r.implementation}`,
    r.operation,
    r.outcome,
    r.reason,
    String(r.runs),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === 5 ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return `${[line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n')}\n`;
}
